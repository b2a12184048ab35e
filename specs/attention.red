# Attention over packed variable-length sequences (flash-attn varlen layout, no padding):
# sequence b holds queries cu_seqlens_q[b]:cu_seqlens_q[b+1] of q and keys
# cu_seqlens_k[b]:cu_seqlens_k[b+1] of k and v. Decode is a sequence with one query,
# prefill one with many; queries sit at the end of their keys (chunked prefill).
op attention
in   q[T, H, D] : bf16 | f16 | f32
in   k[S, G, D] : bf16 | f16 | f32
in   v[S, G, D] : bf16 | f16 | f32
out  o[T, H, D] : like q
acc  f32
param scale = rsqrt(D)
group H by G                      # GQA: query head h reads KV head h // (H / G)
reduce D: qk = sum(q * k)         # the scores: a contraction over the head dim
s = qk * scale
reduce S: a = softmax_sum(s, v)   # online softmax over the keys: (max, scaled sum, weighted acc)
o = a
mask causal                       # query i of q_len sees keys j <= kv_len - q_len + i
tile T = 64, S = 64               # rows (query x head in group) per tile; keys per block
split S fixed_size 256            # chunks of 256 keys at absolute positions, combined left to right
warps 4
