# expect: ok  (names of Python keywords, builtins and the module's own globals, everywhere)
op odd_names
in   torch[dim, range] : f32
in   tl[range] : f32
param lambda = 0.5
param _launch = 1.0
out  triton[dim] : like torch
out  CERTIFICATE[dim, range] : like torch
acc  f32
reduce range: if = max(torch)
reduce range: class = sum(exp(torch - if) * tl)
def = class * lambda + _launch
triton = def / range
CERTIFICATE = exp(torch - if) / class
tile range = 32
split range fixed_size 64
