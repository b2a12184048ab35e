"""What a user imports at run time (torch and triton, never the compiler's parts).

- `loader`: generated modules by op name and target; `custom_ops`: torch.ops.redgen.*;
- `mode`: batch_invariant() / enable() / disable(), routing aten overloads;
- `fast_route`: a repeated call signature's recorded launches served in C++ (the mode's routes,
  the generated launchers' own calls on a CUDA machine);
- `route`: the Route record and the helpers adapters share; `aten`: the adapters of the
  reductions and norms and the route table; `matmul_routes`, `attention_routes`: those of
  the contractions and attention.
"""
