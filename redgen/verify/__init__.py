"""Verification: what proves that an exported kernel is batch invariant.

- `proof`: the z3 proof that each output's floating-point order is a function of the
  sizes the verifier allows (never the batch), `counterexample` when it is not;
- `certificate`: the record of what was proved (embedded in every generated module) and
  the words for it;
- `empirical` (+ `worker`, `contraction_empirical`, `attention_empirical`,
  `interpreter_dot`): the kernels run on several batch sizes, paths and positions, bits
  compared (the interpreter, or a GPU when one is present);
- `attention_proof`: the attention family's proof; `recheck`: a committed certificate
  against a fresh proof (`redgen recheck`).
"""
