# expect: ok  (every spec name starts with zz: none may be a name in the generated code)
op zzop
in   zzx[zzb, zzn, zzk] : f32
in   zzw[zzn] : f32
param zzp = 2.0
out  zzy[zzb, zzk] : like zzx
out  zzz[zzb, zzn, zzk] : like zzx
acc  f32
reduce zzn: zzm = max(zzx)
reduce zzn: zzs = sum(exp(zzx - zzm) * zzw)
zzl = zzs * zzp
zzy = zzl / zzn
zzz = exp(zzx - zzm) / zzs
tile zzn = 32, zzk = 4
split zzn fixed_size 64
