// The batch-invariant mode's routed calls, dispatched in C++ (redgen/runtime/fast_route.py).
//
// Why: a Python kernel registered at a dispatch key costs the dispatcher's trip into Python and
// back (the GIL, every argument boxed into a Python object and the result unboxed), about 12 us a
// call on an H100: a 4-layer Llama under the mode ran 1.16-1.18x its plain time with every routed
// kernel handing the call straight back to torch's own (docs/gpu_2026_11_26, run 43).
//
// What: a boxed kernel per routed aten overload. It keys the call by its signature (each tensor's
// dtype, device, sizes, strides, requires_grad and 16-byte alignment; the other arguments'
// values; the current device) and, where the Python route recorded a plan for that signature
// (redgen/runtime/route_replay.py: the generated launcher's kernels, grids and arguments, its
// outputs and workspaces), allocates the outputs and workspaces and launches the same compiled
// kernels with the same arguments through the driver: the same bits, without Python. Any other
// call (a signature not seen, one not replayable, a knob changed since the plan was recorded,
// a call from inside torch's own kernel for a fallback) is handed to the Python route as torch
// would hand it, which may record a plan for the next call.
#include <torch/extension.h>
#include <torch/library.h>

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/DynamicTypes.h>
#include <torch/csrc/utils/tensor_memoryformats.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/jit/python/pybind_utils.h>

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace py = pybind11;

namespace {

// --- the driver, resolved once (no CUDA headers: a CUresult is an int, handles are pointers) ---
using LaunchKernel = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             void*, void**, void**);
using CtxGetCurrent = int (*)(void**);

struct Driver {
  LaunchKernel launch = nullptr;
  CtxGetCurrent current = nullptr;
};

const Driver& driver() {
  static const Driver d = [] {
    Driver r;
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (lib == nullptr) lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (lib != nullptr) {
      r.launch = reinterpret_cast<LaunchKernel>(dlsym(lib, "cuLaunchKernel"));
      r.current = reinterpret_cast<CtxGetCurrent>(dlsym(lib, "cuCtxGetCurrent"));
    }
    return r;
  }();
  return d;
}

// --- plans ---
// A kernel parameter: `size` bytes (4 or 8) of a constant's bits, or a tensor's device address.
enum Src : int { kConst = -1, kArg = 0, kOut = 1, kWork = 2 };
struct Param {
  int size;
  int src;
  int64_t value;  // kConst: the bits; otherwise the index of the call argument, output or workspace
};
struct Launch {
  void* function;
  unsigned grid[3];
  unsigned block;
  unsigned shared;
  std::vector<Param> params;
};
// A return of a routed call: an output (kOut), a view of one (kView: sizes, strides, offset), a
// tensor the plan holds (kHeld: the adapter's signature-determined constants) or an integer.
enum RetKind : int { kRetOut = 0, kRetView, kRetHeld, kRetInt };
struct Ret {
  int kind;
  int64_t index;  // the output (kRetOut, kRetView) or the integer's value (kRetInt)
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  at::Tensor held;
};
struct Alloc {
  std::vector<int64_t> sizes, strides;
  at::ScalarType dtype;
};

// A family of plans: one kind of launch whose tensors' sizes or strides along some dims move a
// few integers only (dense attention's key length: the K/V strides over it, the chunk count,
// the partials' size; templates/cuda/attention.py.j2 `_family`). A quantity is a tensor
// argument's size or stride along a dim, divided by `divisor` rounded up; the family's key is
// the call's signature with those sizes and strides left out and each quantity's class (how
// Triton specializes an integer: 0, 1, a multiple of 16, its width) and each check (two
// quantities equal) put in. A call of a signature not seen whose family is known gets the
// family's plan with its own quantities in their places, stored under its own signature: a
// decode step's key length, new each step, costs no Python (H100 runs 246-247: about 100 us
// of Python in a step's first layer before).
struct Quantity {
  int arg;
  int kind;  // 0: a size, 1: a stride
  int dim;
  int64_t divisor;
  bool operator==(const Quantity& o) const {
    return arg == o.arg && kind == o.kind && dim == o.dim && divisor == o.divisor;
  }
};
struct Family {
  std::vector<Quantity> quantities;
  std::vector<std::array<int, 2>> checks;  // quantities that must be equal
  std::vector<std::array<int, 3>> params;  // (launch, parameter, quantity)
  std::vector<std::array<int, 3>> grids;   // (launch, grid dim, quantity)
  std::vector<std::array<int64_t, 5>> allocs;  // (0: an output / 1: a workspace, which, size dim, quantity, factor)
  std::vector<std::array<int, 2>> rets;    // (return, quantity): an integer return
};

struct Plan {
  int64_t epoch = 0;
  bool grad = false;  // a direct call's input needs grad: the general path serves it while grad mode is on
  int device = -1;  // where the outputs and workspaces are allocated
  int current = -1;  // the current device when recorded (in the key): its stream, as the launcher's
  std::vector<Alloc> outs, work;
  // The workspaces are one allocation: work_offset[i] bytes into work_bytes (parse: an allocation
  // is most of a small call's host time, and a workspace is only ever a kernel's pointer).
  std::vector<int64_t> work_offset;
  int64_t work_bytes = 0;
  std::vector<Launch> launches;
  // What the aten call returns, where it is more than the outputs in order (attention's adapters:
  // torch's nine outputs): none, or one entry a return (fast_route.py `_returns`).
  std::vector<Ret> rets;
  bool many = false;  // a direct call returns a tuple
  PyObject* replay = nullptr;  // a Python replay (no C launches: the interpreter, another Triton)
  std::shared_ptr<const Family> family;  // a family's plan: the template of its members

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() {
    // The last owner may be a thread without the GIL (a hit running while the table was cleared).
    if (replay != nullptr && Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      Py_DECREF(replay);
    }
  }
};

using Key = std::vector<int64_t>;

struct KeyHash {
  size_t operator()(const Key& k) const noexcept {
    uint64_t h = 1469598103934665603ull ^ k.size();
    for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

constexpr size_t kLimit = 4096;  // a bound, not an LRU: the signatures of a serving loop repeat
constexpr int kRoutes = 256;
constexpr int64_t kWorkAlign = 256;  // bytes between two workspaces of a plan's one allocation

std::shared_mutex table_lock;
std::unordered_map<Key, std::shared_ptr<Plan>, KeyHash> table;  // (route, signature...) -> plan
std::atomic<int64_t> epoch{0};  // bumped when a generated module's knob is set: every plan is stale
std::array<std::atomic<int64_t>, kRoutes> hits{};
thread_local bool in_fallback = false;  // inside torch's own kernel for a fallback (mode.py)

// A plan recorded since the last knob was set; a stale one (or none) serves no call.
bool current(const std::shared_ptr<Plan>& p) { return p && p->epoch == epoch.load(); }

// Tags keep an int from colliding with a double's bits, a list's length with an element.
enum Tag : int64_t { kNone = 1, kBool, kInt, kDouble, kTensor, kIntList, kString, kDevice, kDtype, kTuple, kDirect };

// A family's quantities, which its key leaves out (nullptr: none, an exact key).
using Mask = std::vector<Quantity>;
constexpr int64_t kMasked = std::numeric_limits<int64_t>::min();

bool masked(const Mask* mask, int arg, int kind, int64_t dim) {
  if (mask == nullptr) return false;
  for (const Quantity& q : *mask) {
    if (q.arg == arg && q.kind == kind && q.dim == dim) return true;
  }
  return false;
}

// `arg`: the tensor's place among the call's arguments, for `mask`.
bool tensor_signature(const at::Tensor& t, Key& key, int arg = -1, const Mask* mask = nullptr) {
  if (!t.defined() || t.layout() != c10::kStrided || t.is_conj() || t.is_neg()) return false;
  key.push_back(kTensor);
  key.push_back(static_cast<int64_t>(t.scalar_type()));
  key.push_back(static_cast<int64_t>(t.device().type()) * 1024 + t.device().index());
  key.push_back(t.dim() * 4 + t.requires_grad() * 2 + (reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0));
  auto sizes = t.sizes();
  auto strides = t.strides();
  for (size_t d = 0; d < sizes.size(); ++d) key.push_back(masked(mask, arg, 0, d) ? kMasked : sizes[d]);
  for (size_t d = 0; d < strides.size(); ++d) key.push_back(masked(mask, arg, 1, d) ? kMasked : strides[d]);
  return true;
}

void push_string(const char* data, size_t size, Key& key) {
  key.push_back(kString);
  key.push_back(static_cast<int64_t>(size));
  for (size_t j = 0; j < size; j += 8) {
    int64_t chunk = 0;
    std::memcpy(&chunk, data + j, std::min<size_t>(8, size - j));
    key.push_back(chunk);
  }
}

// The call's signature, appended to `key`; false where an argument has none (a tensor list, a
// non-strided tensor, ...): the Python route takes such calls.
bool signature(const std::vector<c10::IValue>& args, size_t first, Key& key, const Mask* mask = nullptr) {
  for (size_t i = first; i < args.size(); ++i) {
    const c10::IValue& a = args[i];
    if (a.isTensor()) {
      if (!tensor_signature(a.toTensor(), key, static_cast<int>(i), mask)) return false;
    } else if (a.isNone()) {
      key.push_back(kNone);
    } else if (a.isBool()) {
      key.push_back(kBool);
      key.push_back(a.toBool());
    } else if (a.isInt()) {
      key.push_back(kInt);
      key.push_back(a.toInt());
    } else if (a.isDouble()) {
      double d = a.toDouble();
      int64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      key.push_back(kDouble);
      key.push_back(bits);
    } else if (a.isIntList()) {
      auto l = a.toIntList();
      key.push_back(kIntList);
      key.push_back(static_cast<int64_t>(l.size()));
      for (int64_t v : l) key.push_back(v);
    } else if (a.isString()) {
      const std::string& s = a.toStringRef();
      push_string(s.data(), s.size(), key);
    } else if (a.isDevice()) {
      key.push_back(kDevice);
      key.push_back(static_cast<int64_t>(a.toDevice().type()) * 1024 + a.toDevice().index());
    } else {
      return false;
    }
  }
  return true;
}

std::shared_ptr<Plan> find(const Key& key) {
  std::shared_lock<std::shared_mutex> lock(table_lock);
  auto it = table.find(key);
  return it == table.end() ? nullptr : it->second;
}

void store(Key key, std::shared_ptr<Plan> plan) {
  std::unique_lock<std::shared_mutex> lock(table_lock);
  if (table.size() >= kLimit) table.clear();
  table[std::move(key)] = std::move(plan);
}

// --- families ---
// (route, or -1 for a launcher's own calls; the launcher's function id) -> the families' masks
// seen for it, in order: a call of a signature not seen tries each (a few a route).
std::map<std::pair<int64_t, int64_t>, std::vector<std::shared_ptr<const Family>>> masks;

// What the family key adds to the masked signature: each quantity's value class and each check.
// `tensor_at(i)`: the call's i-th argument where it is a tensor, else nullptr. False where a
// quantity has no value (no such tensor or dim): no family serves the call.
template <class TensorAt>
bool quantities(const Family& f, const TensorAt& tensor_at, std::vector<int64_t>& values, Key& key) {
  values.clear();
  for (const Quantity& q : f.quantities) {
    const at::Tensor* t = tensor_at(q.arg);
    if (t == nullptr || q.dim < 0 || q.dim >= t->dim()) return false;
    int64_t v = q.kind == 0 ? t->size(q.dim) : t->stride(q.dim);
    if (q.divisor > 1) {
      if (v < 0) return false;
      v = (v + q.divisor - 1) / q.divisor;
    }
    values.push_back(v);
    // How Triton specializes an integer argument (== 1, a multiple of 16, 32 bits or 64), and 0
    // (an empty length: another path of the launcher's)
    bool narrow = v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    key.push_back((v == 0) | (v == 1) << 1 | (v % 16 == 0) << 2 | narrow << 3 | (v < 0) << 4);
  }
  for (const auto& c : f.checks) key.push_back(values[c[0]] == values[c[1]]);
  return true;
}

// The work's one allocation: each workspace at a 256-byte step (as aligned as its own
// allocation was where the kernels were compiled: Triton specializes a pointer on 16-byte
// divisibility).
void lay_out_work(Plan& plan) {
  plan.work_offset.clear();
  plan.work_bytes = 0;
  for (const Alloc& a : plan.work) {
    int64_t bytes = static_cast<int64_t>(c10::elementSize(a.dtype));
    for (int64_t s : a.sizes) bytes *= s;
    plan.work_offset.push_back(plan.work_bytes);
    plan.work_bytes += (bytes + kWorkAlign - 1) / kWorkAlign * kWorkAlign;
  }
}

// The family's plan with the call's quantities in their places; nullptr where one does not fit
// (a grid dim past the driver's range).
std::shared_ptr<Plan> member(const Plan& f, const std::vector<int64_t>& q) {
  auto p = std::make_shared<Plan>();
  p->epoch = f.epoch;
  p->grad = f.grad;
  p->device = f.device;
  p->current = f.current;
  p->outs = f.outs;
  p->work = f.work;
  p->launches = f.launches;
  p->rets = f.rets;
  p->many = f.many;
  const Family& fam = *f.family;
  for (const auto& m : fam.params) p->launches[m[0]].params[m[1]].value = q[m[2]];
  for (const auto& m : fam.grids) {
    if (q[m[2]] < 0 || q[m[2]] > std::numeric_limits<int32_t>::max()) return nullptr;
    p->launches[m[0]].grid[m[1]] = static_cast<unsigned>(q[m[2]]);
  }
  for (const auto& m : fam.allocs) (m[0] == 0 ? p->outs : p->work)[m[1]].sizes[m[2]] = q[m[3]] * m[4];
  for (const auto& m : fam.rets) p->rets[m[0]].index = q[m[1]];
  lay_out_work(*p);
  return p;
}

// The plan of a call whose signature has none (or a stale one): its family's member, stored under `key` for
// the calls that repeat it; nullptr where no family serves it.
template <class KeyOf, class TensorAt>
std::shared_ptr<Plan> from_family(std::pair<int64_t, int64_t> owner, const Key& key, const KeyOf& key_of,
                                  const TensorAt& tensor_at) {
  std::vector<std::shared_ptr<const Family>> tried;
  {
    std::shared_lock<std::shared_mutex> lock(table_lock);
    auto it = masks.find(owner);
    if (it == masks.end()) return nullptr;
    tried = it->second;
  }
  std::vector<int64_t> values;
  for (size_t i = 0; i < tried.size(); ++i) {
    Key fkey{-2, static_cast<int64_t>(i)};
    if (!key_of(&tried[i]->quantities, fkey) || !quantities(*tried[i], tensor_at, values, fkey)) continue;
    std::shared_ptr<Plan> f = find(fkey);
    if (!current(f) || !f->family) continue;
    std::shared_ptr<Plan> p = member(*f, values);
    if (p) store(key, p);
    return p;
  }
  return nullptr;
}

// Record `plan` (a family's, the call's own member) under the family key of the call that made it.
template <class KeyOf, class TensorAt>
void store_family(std::pair<int64_t, int64_t> owner, const std::shared_ptr<Plan>& plan, const KeyOf& key_of,
                  const TensorAt& tensor_at) {
  int64_t index = -1;
  {
    std::unique_lock<std::shared_mutex> lock(table_lock);
    auto& seen = masks[owner];
    for (size_t i = 0; i < seen.size(); ++i) {
      if (seen[i]->quantities == plan->family->quantities && seen[i]->checks == plan->family->checks) index = i;
    }
    if (index < 0) {
      if (seen.size() >= 16) return;  // a bound: a launcher's families are its layouts
      index = static_cast<int64_t>(seen.size());
      seen.push_back(plan->family);
    }
  }
  Key fkey{-2, index};
  std::vector<int64_t> values;
  if (key_of(&plan->family->quantities, fkey) && quantities(*plan->family, tensor_at, values, fkey)) {
    store(std::move(fkey), plan);
  }
}

// --- running a plan ---
at::Tensor device_tensor(const Alloc& a, const at::TensorOptions& opts) {
  return at::empty_strided(a.sizes, a.strides, opts.dtype(a.dtype));
}

// The recorded launches on this call's tensors; false (nothing launched, nothing on the stack
// changed) where the driver has no current context: the Python route launches then.
// `arg(i)`: the call's i-th argument, a tensor wherever a plan's parameter reads one.
template <class Arg>
bool launch(const Plan& plan, const Arg& arg, std::vector<at::Tensor>& outs) {
  const Driver& d = driver();
  void* ctx = nullptr;
  if (d.launch == nullptr || d.current(&ctx) != 0 || ctx == nullptr) return false;
  c10::Device dev(c10::kCUDA, static_cast<c10::DeviceIndex>(plan.device));
  auto opts = at::TensorOptions().device(dev);
  outs.reserve(plan.outs.size());
  for (const Alloc& a : plan.outs) outs.push_back(device_tensor(a, opts));
  // Freed when the launches are queued: the caching allocator hands it out again only in
  // this stream's order, after them.
  at::Tensor work = plan.work_bytes == 0 ? at::Tensor() : at::empty({plan.work_bytes}, opts.dtype(at::kByte));
  char* work_base = plan.work_bytes == 0 ? nullptr : static_cast<char*>(work.data_ptr());
  c10::impl::VirtualGuardImpl impl(c10::kCUDA);
  void* stream = impl.getStream(c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(plan.current))).native_handle();
  std::vector<int64_t> values;
  std::vector<void*> pointers;
  for (const Launch& l : plan.launches) {
    values.resize(l.params.size());
    pointers.resize(l.params.size());
    for (size_t i = 0; i < l.params.size(); ++i) {
      const Param& p = l.params[i];
      switch (p.src) {
        case kArg:
          values[i] = reinterpret_cast<int64_t>(arg(p.value).data_ptr());
          break;
        case kOut:
          values[i] = reinterpret_cast<int64_t>(outs[p.value].data_ptr());
          break;
        case kWork:
          values[i] = reinterpret_cast<int64_t>(work_base + plan.work_offset[p.value]);
          break;
        default:
          values[i] = p.value;
      }
      pointers[i] = &values[i];  // a 4-byte parameter reads the low half (x86-64, aarch64: little endian)
    }
    if (static_cast<uint64_t>(l.grid[0]) * l.grid[1] * l.grid[2] == 0) continue;  // as Triton's launcher
    int rc = d.launch(l.function, l.grid[0], l.grid[1], l.grid[2], l.block, 1, 1, l.shared, stream,
                      pointers.data(), nullptr);
    TORCH_CHECK(rc == 0, "redgen fast route: cuLaunchKernel failed with CUDA error ", rc);
  }
  return true;
}

// --- the plan a Python description gives (fast_route.py: describe) ---
std::vector<Alloc> allocs(py::handle seq) {
  std::vector<Alloc> r;
  for (py::handle a : seq) {
    auto t = a.cast<py::tuple>();
    PyObject* dtype = t[2].ptr();
    TORCH_CHECK(THPDtype_Check(dtype), "redgen fast route: a plan's dtype is not a torch.dtype");
    r.push_back({t[0].cast<std::vector<int64_t>>(), t[1].cast<std::vector<int64_t>>(),
                 reinterpret_cast<THPDtype*>(dtype)->scalar_type});
  }
  return r;
}

// A family description's entries: tuples of N integers each.
template <size_t N>
std::vector<std::array<int64_t, N>> rows(py::handle seq) {
  std::vector<std::array<int64_t, N>> r;
  for (py::handle h : seq) {
    auto t = h.cast<py::tuple>();
    TORCH_CHECK(t.size() == N, "redgen fast route: a family's entry has ", t.size(), " fields, not ", N);
    std::array<int64_t, N> a;
    for (size_t i = 0; i < N; ++i) a[i] = t[i].cast<int64_t>();
    r.push_back(a);
  }
  return r;
}

// (quantities, checks, params, grids, allocs, rets) of fast_route.py `_family`, checked against
// the plan it moves.
std::shared_ptr<const Family> family(py::handle desc, const Plan& plan) {
  auto t = desc.cast<py::tuple>();
  auto f = std::make_shared<Family>();
  for (const auto& q : rows<4>(t[0])) {
    TORCH_CHECK(q[0] >= 0 && (q[1] == 0 || q[1] == 1) && q[3] >= 1, "redgen fast route: a family's quantity is not one");
    f->quantities.push_back({static_cast<int>(q[0]), static_cast<int>(q[1]), static_cast<int>(q[2]), q[3]});
  }
  const int64_t n = static_cast<int64_t>(f->quantities.size());
  auto quantity = [&](int64_t i) {
    TORCH_CHECK(i >= 0 && i < n, "redgen fast route: a family names quantity ", i, " of ", n);
    return static_cast<int>(i);
  };
  for (const auto& c : rows<2>(t[1])) f->checks.push_back({quantity(c[0]), quantity(c[1])});
  const int64_t launches = static_cast<int64_t>(plan.launches.size());
  for (const auto& m : rows<3>(t[2])) {
    TORCH_CHECK(m[0] >= 0 && m[0] < launches && m[1] >= 0 &&
                    m[1] < static_cast<int64_t>(plan.launches[m[0]].params.size()) &&
                    plan.launches[m[0]].params[m[1]].src == kConst,
                "redgen fast route: a family moves a parameter that is not an integer");
    f->params.push_back({static_cast<int>(m[0]), static_cast<int>(m[1]), quantity(m[2])});
  }
  for (const auto& m : rows<3>(t[3])) {
    TORCH_CHECK(m[0] >= 0 && m[0] < launches && m[1] >= 0 && m[1] < 3, "redgen fast route: a family's grid dim");
    f->grids.push_back({static_cast<int>(m[0]), static_cast<int>(m[1]), quantity(m[2])});
  }
  for (const auto& m : rows<5>(t[4])) {
    const auto& seq = m[0] == 0 ? plan.outs : plan.work;
    TORCH_CHECK((m[0] == 0 || m[0] == 1) && m[1] >= 0 && m[1] < static_cast<int64_t>(seq.size()) && m[2] >= 0 &&
                    m[2] < static_cast<int64_t>(seq[m[1]].sizes.size()) && seq[m[1]].sizes.size() == 1,
                "redgen fast route: a family resizes an allocation that is not a flat one");
    quantity(m[3]);
    f->allocs.push_back(m);
  }
  for (const auto& m : rows<2>(t[5])) {
    TORCH_CHECK(m[0] >= 0 && m[0] < static_cast<int64_t>(plan.rets.size()) && plan.rets[m[0]].kind == kRetInt,
                "redgen fast route: a family moves a return that is not an integer");
    f->rets.push_back({static_cast<int>(m[0]), quantity(m[1])});
  }
  return f;
}

// desc: ("launch", device, outs, workspaces, launches, current device[, returns[, family]]) or
// ("python", replay).
std::shared_ptr<Plan> parse(py::handle desc) {
  auto t = desc.cast<py::tuple>();
  auto plan = std::make_shared<Plan>();
  plan->epoch = epoch.load();
  if (t[0].cast<std::string>() == "python") {
    plan->replay = t[1].ptr();
    Py_INCREF(plan->replay);
    return plan;
  }
  plan->device = t[1].cast<int>();
  plan->current = t[5].cast<int>();
  plan->outs = allocs(t[2]);
  plan->work = allocs(t[3]);
  lay_out_work(*plan);
  for (py::handle h : t[4]) {
    auto l = h.cast<py::tuple>();
    Launch launch;
    launch.function = reinterpret_cast<void*>(l[0].cast<uintptr_t>());
    for (int i = 0; i < 3; ++i) launch.grid[i] = l[1].cast<py::tuple>()[i].cast<unsigned>();
    launch.block = l[2].cast<unsigned>();
    launch.shared = l[3].cast<unsigned>();
    for (py::handle p : l[4]) {
      auto q = p.cast<py::tuple>();
      launch.params.push_back({q[0].cast<int>(), q[1].cast<int>(), q[2].cast<int64_t>()});
    }
    plan->launches.push_back(std::move(launch));
  }
  if (t.size() > 6 && !t[6].is_none()) {  // the returns, where not the outputs in order
    for (py::handle h : t[6]) {
      auto r = h.cast<py::tuple>();
      Ret ret;
      ret.kind = r[0].cast<int>();
      if (ret.kind == kRetHeld) {
        TORCH_CHECK(THPVariable_Check(r[1].ptr()), "redgen fast route: a held return is not a tensor");
        ret.held = THPVariable_Unpack(r[1].ptr());
      } else {
        ret.index = r[1].cast<int64_t>();
      }
      if (ret.kind == kRetView) {
        ret.sizes = r[2].cast<std::vector<int64_t>>();
        ret.strides = r[3].cast<std::vector<int64_t>>();
        ret.offset = r[4].cast<int64_t>();
      }
      plan->rets.push_back(std::move(ret));
    }
  }
  if (t.size() > 7 && !t[7].is_none()) plan->family = family(t[7], *plan);
  return plan;
}

// --- the Python side, as torch calls a Python kernel: positional and keyword-only arguments ---
// An argument as Python sees it: an IValue holds a dtype, a layout or a memory format as an int,
// which only the schema's type tells apart.
py::object to_python(const c10::Argument& arg, c10::IValue v) {
  if (v.isInt()) {
    c10::TypePtr t = arg.real_type();
    if (auto opt = t->cast<c10::OptionalType>()) t = opt->getElementType();
    switch (t->kind()) {
      case c10::TypeKind::ScalarTypeType:
        return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(torch::getTHPDtype(v.toScalarType())));
      case c10::TypeKind::LayoutType:
        return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(torch::getTHPLayout(v.toLayout())));
      case c10::TypeKind::MemoryFormatType:
        return py::reinterpret_borrow<py::object>(torch::utils::getTHPMemoryFormat(v.toMemoryFormat()));
      default:
        break;
    }
  }
  return torch::jit::toPyObject(std::move(v));
}

py::tuple to_python(const c10::OperatorHandle& op, std::vector<c10::IValue> args) {
  const auto& schema = op.schema().arguments();
  py::list pos;
  py::dict kw;
  for (size_t i = 0; i < args.size(); ++i) {
    py::object v = to_python(schema[i], std::move(args[i]));
    if (schema[i].kwarg_only()) {
      kw[py::str(schema[i].name())] = v;
    } else {
      pos.append(v);
    }
  }
  return py::make_tuple(py::tuple(pos), kw);
}

void push_result(const c10::OperatorHandle& op, torch::jit::Stack* stack, py::handle out) {
  const auto& rets = op.schema().returns();
  if (rets.size() == 1) {
    stack->push_back(torch::jit::toIValue(out, rets[0].type()));
    return;
  }
  auto t = py::reinterpret_borrow<py::tuple>(out);
  TORCH_CHECK(t.size() == rets.size(), "redgen fast route: ", op.schema().name(), " returned ", t.size(),
              " values, its schema ", rets.size());
  for (size_t i = 0; i < rets.size(); ++i) stack->push_back(torch::jit::toIValue(t[i], rets[i].type()));
}

// --- a generated launcher's own call (its `_replayed`, templates/cuda/replay.py.j2) ---
// The Python arguments' signature, as the launcher's `_sig` reads them; false where one has none.
bool py_signature(PyObject* a, Key& key, int arg = -1, const Mask* mask = nullptr) {
  if (THPVariable_Check(a)) {
    // Its Python class too, as the launcher's key: a subclass never takes a plain tensor's plan.
    key.push_back(reinterpret_cast<int64_t>(Py_TYPE(a)));
    return tensor_signature(THPVariable_Unpack(a), key, arg, mask);
  }
  if (a == Py_None) {
    key.push_back(kNone);
  } else if (PyBool_Check(a)) {
    key.push_back(kBool);
    key.push_back(a == Py_True);
  } else if (PyLong_CheckExact(a)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow != 0) return false;
    key.push_back(kInt);
    key.push_back(v);
  } else if (PyFloat_CheckExact(a)) {
    double d = PyFloat_AS_DOUBLE(a);
    int64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    key.push_back(kDouble);
    key.push_back(bits);
  } else if (THPDtype_Check(a)) {
    key.push_back(kDtype);
    key.push_back(static_cast<int64_t>(reinterpret_cast<THPDtype*>(a)->scalar_type));
  } else if (PyTuple_CheckExact(a)) {
    Py_ssize_t n = PyTuple_GET_SIZE(a);
    key.push_back(kTuple);
    key.push_back(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!py_signature(PyTuple_GET_ITEM(a, i), key)) return false;
    }
  } else if (PyUnicode_CheckExact(a)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(a, &size);
    if (data == nullptr) {
      PyErr_Clear();
      return false;
    }
    push_string(data, static_cast<size_t>(size), key);
  } else {
    return false;
  }
  return true;
}

bool direct_key(int64_t fn, const py::tuple& args, Key& key, const Mask* mask = nullptr) {
  key.reserve(48);
  key.push_back(kDirect);
  key.push_back(fn);
  // The current device, as the launcher's key: -1 where torch has no CUDA (a stand-in's test).
  key.push_back(c10::impl::hasDeviceGuardImpl(c10::kCUDA) ? c10::impl::VirtualGuardImpl(c10::kCUDA).getDevice().index()
                                                            : -1);
  try {
    int i = 0;
    for (py::handle a : args) {
      if (!py_signature(a.ptr(), key, i++, mask)) return false;
    }
  } catch (const c10::Error&) {  // a tensor with no data (a fake tensor): the launcher's Python path
    return false;
  }
  return true;
}

// The launcher's result from its plan for this signature, or None (no plan, a stale one, an
// input needing grad with grad mode on, no current context): the launcher's Python path then.
// A launcher's own call: its i-th argument where a tensor.
struct PyTensorAt {
  const py::tuple& args;
  const at::Tensor* operator()(int i) const {
    if (i < 0 || i >= static_cast<int>(args.size())) return nullptr;
    PyObject* a = PyTuple_GET_ITEM(args.ptr(), i);
    return THPVariable_Check(a) ? &THPVariable_Unpack(a) : nullptr;
  }
};

// A launcher's plan for this call: its signature's, or its family's member for it (then stored
// under the signature); nullptr where none, or a stale one.
std::shared_ptr<Plan> direct_plan(int64_t fn, const py::tuple& args) {
  Key key;
  if (!direct_key(fn, args, key)) return nullptr;
  std::shared_ptr<Plan> plan = find(key);
  // a stale plan (a knob set since) no more than none: a family stored since may serve the call
  if (!current(plan)) {
    auto key_of = [&](const Mask* mask, Key& k) { return direct_key(fn, args, k, mask); };
    plan = from_family({-1, fn}, key, key_of, PyTensorAt{args});
  }
  return current(plan) && plan->replay == nullptr ? plan : nullptr;
}

py::object direct_replay(int64_t fn, const py::tuple& args) {
  std::shared_ptr<Plan> plan = direct_plan(fn, args);
  if (!plan || (plan->grad && at::GradMode::is_enabled())) return py::none();
  std::vector<at::Tensor> outs;
  auto arg = [&](int64_t i) -> const at::Tensor& { return THPVariable_Unpack(PyTuple_GET_ITEM(args.ptr(), i)); };
  if (!launch(*plan, arg, outs)) return py::none();
  if (!plan->many) return py::reinterpret_steal<py::object>(THPVariable_Wrap(std::move(outs[0])));
  py::tuple got(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) got[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(std::move(outs[i])));
  return got;
}

// What C++ would launch for a launcher's call (direct_plan), without launching: (outputs' sizes and strides, workspaces' sizes and byte
// offsets, each launch's grid and parameters, the returns) or None. The tests' view of a plan.
py::object direct_planned(int64_t fn, const py::tuple& args) {
  std::shared_ptr<Plan> plan = direct_plan(fn, args);
  if (!plan) return py::none();
  py::list outs, work, launches, rets;
  for (const Alloc& a : plan->outs) outs.append(py::make_tuple(py::tuple(py::cast(a.sizes)), py::tuple(py::cast(a.strides))));
  for (size_t i = 0; i < plan->work.size(); ++i) {
    work.append(py::make_tuple(py::tuple(py::cast(plan->work[i].sizes)), plan->work_offset[i]));
  }
  for (const Launch& l : plan->launches) {
    py::list params;
    for (const Param& p : l.params) params.append(py::make_tuple(p.size, p.src, p.value));
    launches.append(py::make_tuple(py::make_tuple(l.grid[0], l.grid[1], l.grid[2]), py::tuple(params)));
  }
  for (const Ret& r : plan->rets) rets.append(py::make_tuple(r.kind, r.index));
  return py::make_tuple(py::tuple(outs), py::tuple(work), py::tuple(launches), py::tuple(rets));
}

void direct_store(int64_t fn, const py::tuple& args, py::handle desc, bool grad, bool many) {
  Key key;
  if (!direct_key(fn, args, key)) return;
  std::shared_ptr<Plan> plan = parse(desc);
  if (plan->replay != nullptr || plan->outs.empty()) return;
  plan->grad = grad;
  plan->many = many;
  store(std::move(key), plan);
  if (plan->family) {
    auto key_of = [&](const Mask* mask, Key& k) { return direct_key(fn, args, k, mask); };
    store_family({-1, fn}, plan, key_of, PyTensorAt{args});
  }
}

// --- the kernel ---
class RouteKernel final : public c10::OperatorKernel {
 public:
  RouteKernel(int route, bool cuda, py::object miss) : route_(route), cuda_(cuda), miss_(miss.release().ptr()) {}
  RouteKernel(const RouteKernel&) = delete;
  RouteKernel& operator=(const RouteKernel&) = delete;
  ~RouteKernel() override {
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      Py_DECREF(miss_);
    }
  }

  void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet, torch::jit::Stack* stack) {
    const size_t n = op.schema().arguments().size();
    Key key;
    bool keyed = false;
    if (!in_fallback) {
      key.reserve(48);
      std::vector<c10::IValue> args(stack->end() - n, stack->end());
      keyed = key_of(args, nullptr, key);
      if (keyed) {
        std::shared_ptr<Plan> plan = find(key);
        if (!current(plan)) {  // (a stale one: as in direct_plan)
          auto key_with = [&](const Mask* mask, Key& k) { return key_of(args, mask, k); };
          plan = from_family({route_, 0}, key, key_with, IValueTensorAt{args});
        }
        if (current(plan) && run(*plan, op, args, stack, n)) {
          hits[route_].fetch_add(1, std::memory_order_relaxed);
          return;
        }
      }
    }
    miss(op, stack, n, keyed ? &key : nullptr);
  }

 private:
  // The call's i-th argument where a tensor.
  struct IValueTensorAt {
    const std::vector<c10::IValue>& args;
    const at::Tensor* operator()(int i) const {
      if (i < 0 || i >= static_cast<int>(args.size()) || !args[i].isTensor()) return nullptr;
      return &args[i].toTensor();
    }
  };

  // The call's key (`mask`: a family's, its quantities left out), appended to `key`; false where
  // an argument has no signature (the Python route then).
  bool key_of(const std::vector<c10::IValue>& args, const Mask* mask, Key& key) const {
    key.push_back(route_);
    key.push_back(cuda_ ? c10::impl::VirtualGuardImpl(c10::kCUDA).getDevice().index() : -1);
    try {
      return signature(args, 0, key, mask);
    } catch (const c10::Error&) {  // a tensor with no data: the Python route
      return false;
    }
  }

  bool run(const Plan& plan, const c10::OperatorHandle& op, const std::vector<c10::IValue>& args,
           torch::jit::Stack* stack, size_t n) {
    if (plan.replay != nullptr) {
      py::gil_scoped_acquire gil;
      PyObject* out = PyObject_Call(plan.replay, to_python(op, args).ptr(), nullptr);
      if (out == nullptr) throw python_error();
      auto res = py::reinterpret_steal<py::object>(out);
      torch::jit::drop(*stack, n);
      push_result(op, stack, res);
      return true;
    }
    std::vector<at::Tensor> outs;
    if (!launch(plan, [&](int64_t i) -> const at::Tensor& { return args[i].toTensor(); }, outs)) return false;
    torch::jit::drop(*stack, n);
    if (plan.rets.empty()) {
      for (at::Tensor& t : outs) stack->emplace_back(std::move(t));
      return true;
    }
    for (const Ret& r : plan.rets) {
      switch (r.kind) {
        case kRetOut:
          stack->emplace_back(outs[r.index]);
          break;
        case kRetView:
          stack->emplace_back(outs[r.index].as_strided(r.sizes, r.strides, r.offset));
          break;
        case kRetHeld:
          stack->emplace_back(r.held);
          break;
        default:
          stack->emplace_back(r.index);
      }
    }
    return true;
  }

  // The Python route, as torch calls a Python kernel; it returns (result, a plan or None).
  void miss(const c10::OperatorHandle& op, torch::jit::Stack* stack, size_t n, const Key* key) {
    auto arguments = torch::jit::pop(*stack, n);
    std::vector<c10::IValue> kept;
    if (key != nullptr) kept = arguments;  // (a family's key reads them after the call)
    py::gil_scoped_acquire gil;
    PyObject* got = PyObject_Call(miss_, to_python(op, std::move(arguments)).ptr(), nullptr);
    if (got == nullptr) throw python_error();
    auto res = py::reinterpret_steal<py::tuple>(got);
    push_result(op, stack, res[0]);
    if (key != nullptr && !res[1].is_none()) {
      std::shared_ptr<Plan> plan = parse(res[1]);
      size_t returns = plan->rets.empty() ? plan->outs.size() : plan->rets.size();
      if (plan->replay == nullptr && returns != op.schema().returns().size()) return;
      store(*key, plan);
      if (plan->family) {
        auto key_with = [&](const Mask* mask, Key& k) { return key_of(kept, mask, k); };
        store_family({route_, 0}, plan, key_with, IValueTensorAt{kept});
      }
    }
  }

  const int route_;
  const bool cuda_;
  PyObject* miss_;
};

struct Quiet final : c10::WarningHandler {
  void process(const c10::Warning&) override {}
};

// An aten IMPL library at one dispatch key; dropping it removes its kernels.
class Router {
 public:
  explicit Router(const std::string& key)
      : lib_(torch::Library::IMPL, "aten", c10::parseDispatchKey(key), "redgen/runtime/fast_route.py", 0),
        cuda_(key == "CUDA") {}

  void add(const std::string& name, int route, py::object miss) {
    TORCH_CHECK(route >= 0 && route < kRoutes, "redgen fast route: route id ", route, " out of range");
    // Overriding torch's kernel is the point: its warning would go straight to stderr from here.
    Quiet quiet;
    c10::WarningUtils::WarningHandlerGuard guard(&quiet);
    lib_.impl(name.c_str(), torch::CppFunction::makeFromBoxedFunctor(std::make_unique<RouteKernel>(route, cuda_, miss)));
  }

 private:
  torch::Library lib_;
  const bool cuda_;
};

void clear() {
  std::unique_lock<std::shared_mutex> lock(table_lock);
  table.clear();
  masks.clear();
}

std::pair<size_t, size_t> size() {
  std::shared_lock<std::shared_mutex> lock(table_lock);
  size_t python = 0;
  size_t families = 0;
  for (const auto& kv : table) {
    python += kv.second->replay != nullptr;
    families += kv.first[0] == -2;  // a family's key: the plan is also its recording call's
  }
  return {table.size() - python - families, python};
}

}  // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "redgen's batch-invariant mode: routed calls replayed in C++";
  py::class_<Router>(m, "Router").def(py::init<const std::string&>()).def("add", &Router::add);
  m.def("replay", &direct_replay, "A generated launcher's call served from its plan, or None.");
  m.def("store", &direct_store, "Record a generated launcher's plan for this call's signature.");
  m.def("planned", &direct_planned, "What a launcher's call would launch from C++, or None (tests).");
  m.def("bump", [] { epoch.fetch_add(1); }, "Every recorded plan is stale (a generated module's knob was set).");
  m.def("clear", &clear, "Forget every recorded plan.");
  m.def("size", &size, "(plans launched from C++, plans replayed by Python) recorded now.");
  m.def("hits", [](int route) { return hits.at(route).load(); }, "Calls of a route served from a plan.");
  m.def("set_in_fallback", [](bool on) { in_fallback = on; }, "This thread is inside torch's kernel for a fallback.");
  m.def("driver", [] { return driver().launch != nullptr; }, "Whether libcuda's cuLaunchKernel was found.");
}
