// An emulated CUDA driver: the part of libcuda.so.1's API that Kiln's runtime calls through JCuda,
// implemented on the host, so that the real runtime (CudaRuntime's preflight, CudaDevice,
// DeviceArray, CudaKernel, the generated device launchers) runs end to end on a machine without a
// GPU. A test process loads it in place of the driver with LD_LIBRARY_PATH.
//
// - Memory: each allocation is its own mapping, its last byte just before an inaccessible guard
//   page, filled with 0xFF bytes (NaN for float and double, -1 for int) as a GPU gives garbage; a
//   kernel that reads or writes past the end of an array, or uses an address that is not a live
//   allocation, fails with CUDA_ERROR_ILLEGAL_ADDRESS.
// - Modules: cuModuleLoadData hashes the PTX text (64-bit FNV-1a) and loads the host build of the
//   same .cu from $KILN_CUDA_EMULATION_MODULES/<hash>.so (cuda_emulation.h plus a glue that
//   describes each kernel); the PTX itself is not interpreted. PTX made by the emulated NVRTC
//   (libnvrtc_emulation.c) names its source's hash in a comment instead. The driver reports CUDA
//   $KILN_CUDA_EMULATION_DRIVER_VERSION (default 13000) and refuses PTX of a newer ISA with
//   CUDA_ERROR_UNSUPPORTED_PTX_VERSION, as a real driver does.
// - Launches run synchronously, in the calling thread, in the order they are made (a valid schedule
//   of any set of streams); a failed kernel's error is returned by the next synchronising call
//   (cuStreamSynchronize, cuCtxSynchronize, cuEventSynchronize, cuMemcpyDtoH), as on a GPU, and
//   like a GPU's it is sticky: every later call fails with it (restart the process).
//   Launch limits are checked as the driver does: at most 1024 threads a block, 64 along z, the
//   grid within $KILN_CUDA_EMULATION_MAX_GRID ("x,y,z", default 2147483647,65535,65535).
// - $KILN_CUDA_EMULATION_SEED (default 1) shuffles the order of blocks and of threads; 0 runs them
//   in index order. Every launch is checked for races (run(), below); $KILN_CUDA_EMULATION_RACE_CHECK=0
//   turns that off.
//
// - Libraries: kiln_emu_library_launch (at the end) runs the device work of an emulated CUDA library
//   (libcublas_emulation.c) in the same order as the launches.
//
// Every call is serialised by one lock. Functions the runtime does not call are absent: JCuda binds
// lazily, and a call to one would end the process with a symbol lookup error naming it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void* CUcontext;
typedef void* CUstream;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};

// The module side (cuda_emulation.h).
struct kiln_emu_kernel {
  const char* name;
  void (*body)(void** params);
  int syncs;
  const char* params;
};
typedef int (*launch_fn)(const struct kiln_emu_kernel*, const unsigned*, const unsigned*, void**, uint64_t,
    char*, int, int (*)(void*, uint64_t), void*);

struct module {
  void* library;
  launch_fn launch;
};

struct function {
  struct module* module;
  const struct kiln_emu_kernel* kernel;
};

struct event {
  double milliseconds;
};

struct allocation {
  char* mapping;
  size_t mapping_bytes;
  CUdeviceptr start;
  size_t bytes;
  unsigned long long id;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialised;
static struct allocation* allocations;
static size_t allocation_count;
static size_t allocation_capacity;
static unsigned long long allocation_ids;
static size_t allocated_bytes;
static CUresult pending = CUDA_SUCCESS;
static CUresult sticky = CUDA_SUCCESS;  // once a kernel fails, every later call fails, as on a GPU
static unsigned long long launches;
static const size_t TOTAL_MEMORY = 16ull << 30;

// The kernel running now, for the SIGSEGV handler.
static sigjmp_buf kernel_exit;
static volatile sig_atomic_t in_kernel;
static pthread_t kernel_thread;
static void* volatile fault_address;
static struct sigaction previous_segv;
static struct sigaction previous_bus;
static int handler_installed;

static CUresult fail_later(CUresult error) {
  if (pending == CUDA_SUCCESS) {
    pending = error;
  }
  return CUDA_SUCCESS;
}

static CUresult take_pending(void) {
  if (sticky != CUDA_SUCCESS) {
    return sticky;
  }
  CUresult r = pending;
  pending = CUDA_SUCCESS;
  if (r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED) {
    sticky = r;
  }
  return r;
}

static struct allocation* find(CUdeviceptr p, size_t bytes) {
  for (size_t i = 0; i < allocation_count; i++) {
    struct allocation* a = &allocations[i];
    if (p >= a->start && p <= a->start + a->bytes && bytes <= a->start + a->bytes - p) {
      return a;
    }
  }
  return NULL;
}

static struct allocation* guard_of(void* address) {
  char* c = (char*) address;
  for (size_t i = 0; i < allocation_count; i++) {
    struct allocation* a = &allocations[i];
    if (c >= a->mapping && c < a->mapping + a->mapping_bytes) {
      return a;
    }
  }
  return NULL;
}

static void chain(const struct sigaction* previous, int sig, siginfo_t* info, void* context) {
  if (previous->sa_flags & SA_SIGINFO) {
    previous->sa_sigaction(sig, info, context);
  } else if (previous->sa_handler == SIG_DFL) {
    signal(sig, SIG_DFL);
    raise(sig);
  } else if (previous->sa_handler != SIG_IGN) {
    previous->sa_handler(sig);
  }
}

static void on_fault(int sig, siginfo_t* info, void* context) {
  if (in_kernel && pthread_equal(pthread_self(), kernel_thread)) {
    fault_address = info->si_addr;
    siglongjmp(kernel_exit, 1);
  }
  chain(sig == SIGSEGV ? &previous_segv : &previous_bus, sig, info, context);
}

static void install_handler(void) {
  if (handler_installed) {
    return;
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv);
  sigaction(SIGBUS, &action, &previous_bus);
  handler_installed = 1;
}

static uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = getenv(name);
  return v == NULL || *v == 0 ? fallback : strtoull(v, NULL, 10);
}

static unsigned max_grid(int axis) {
  unsigned limits[3] = {2147483647u, 65535u, 65535u};
  const char* v = getenv("KILN_CUDA_EMULATION_MAX_GRID");
  if (v != NULL) {
    sscanf(v, "%u,%u,%u", &limits[0], &limits[1], &limits[2]);
  }
  return limits[axis];
}

// ---- initialisation and the device ----

CUresult cuInit(unsigned flags) {
  (void) flags;
  pthread_mutex_lock(&lock);
  initialised = 1;
  pthread_mutex_unlock(&lock);
  return CUDA_SUCCESS;
}

// The newest PTX ISA (10 * major + minor) that a driver of CUDA `version` (12060 for 12.6) reads.
static int ptx_isa(int version) {
  static const int table[][2] = {
      {11080, 78}, {12000, 80}, {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84}, {12050, 85},
      {12060, 85}, {12080, 87}, {12090, 88}, {13000, 90}};
  int isa = 0;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (version >= table[i][0]) {
      isa = table[i][1];
    }
  }
  return isa;
}

static int driver_version(void) {
  return (int) env_u64("KILN_CUDA_EMULATION_DRIVER_VERSION", 13000);
}

CUresult cuDriverGetVersion(int* version) {
  if (version == NULL) return CUDA_ERROR_INVALID_VALUE;
  *version = driver_version();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, (size_t) length, "Kiln CUDA emulation on the host");
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) {
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = TOTAL_MEMORY;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  switch (attribute) {
    case 1: *value = 1024; break;                     // MAX_THREADS_PER_BLOCK
    case 2: case 3: *value = 1024; break;             // MAX_BLOCK_DIM_X, _Y
    case 4: *value = 64; break;                       // MAX_BLOCK_DIM_Z
    case 5: *value = (int) max_grid(0); break;        // MAX_GRID_DIM_X
    case 6: *value = (int) max_grid(1); break;        // MAX_GRID_DIM_Y
    case 7: *value = (int) max_grid(2); break;        // MAX_GRID_DIM_Z
    case 16: *value = 4; break;                       // MULTIPROCESSOR_COUNT
    case 75: *value = 9; break;                       // COMPUTE_CAPABILITY_MAJOR
    case 76: *value = 0; break;                       // COMPUTE_CAPABILITY_MINOR
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  if (device != 0) return CUDA_ERROR_INVALID_DEVICE;
  static int the_context;
  *context = &the_context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  (void) context;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  pthread_mutex_lock(&lock);
  CUresult r = take_pending();
  pthread_mutex_unlock(&lock);
  return r;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  switch (error) {
    case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case CUDA_ERROR_ILLEGAL_ADDRESS: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
    case CUDA_ERROR_LAUNCH_FAILED: *name = "CUDA_ERROR_LAUNCH_FAILED"; break;
    default: *name = "CUDA_ERROR_UNKNOWN"; break;
  }
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  return cuGetErrorName(error, text);
}

// ---- memory ----

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&lock);
  CUresult r = sticky;
  size_t page = (size_t) sysconf(_SC_PAGESIZE);
  size_t data = bytes > TOTAL_MEMORY ? 0 : (bytes + page - 1) / page * page;
  if (r != CUDA_SUCCESS) {
    // the context is gone
  } else if (bytes > TOTAL_MEMORY - allocated_bytes) {
    r = CUDA_ERROR_OUT_OF_MEMORY;
  } else {
    char* mapping = mmap(NULL, data + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
      r = CUDA_ERROR_OUT_OF_MEMORY;
    } else {
      mprotect(mapping + data, page, PROT_NONE);
      if (allocation_count == allocation_capacity) {
        size_t capacity = allocation_capacity == 0 ? 64 : 2 * allocation_capacity;
        struct allocation* grown = realloc(allocations, capacity * sizeof *allocations);
        if (grown == NULL) {
          munmap(mapping, data + page);
          pthread_mutex_unlock(&lock);
          return CUDA_ERROR_OUT_OF_MEMORY;
        }
        allocations = grown;
        allocation_capacity = capacity;
      }
      struct allocation* a = &allocations[allocation_count++];
      a->mapping = mapping;
      a->mapping_bytes = data + page;
      a->start = (CUdeviceptr) (mapping + data - bytes);
      a->bytes = bytes;
      a->id = ++allocation_ids;
      memset(mapping, 0xFF, data);
      allocated_bytes += bytes;
      *pointer = a->start;
    }
  }
  pthread_mutex_unlock(&lock);
  return r;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  pthread_mutex_lock(&lock);
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < allocation_count; i++) {
    if (allocations[i].start == pointer) {
      munmap(allocations[i].mapping, allocations[i].mapping_bytes);
      allocated_bytes -= allocations[i].bytes;
      allocations[i] = allocations[--allocation_count];
      r = CUDA_SUCCESS;
      break;
    }
  }
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "kiln emulation: cuMemFree of 0x%llx, which is not a live allocation\n", pointer);
  }
  pthread_mutex_unlock(&lock);
  return r;
}

CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  pthread_mutex_lock(&lock);
  *free_bytes = TOTAL_MEMORY - allocated_bytes;
  *total = TOTAL_MEMORY;
  pthread_mutex_unlock(&lock);
  return CUDA_SUCCESS;
}

static CUresult checked_range(const char* call, CUdeviceptr p, size_t bytes) {
  if (find(p, bytes) == NULL) {
    fprintf(stderr, "kiln emulation: %s of %zu bytes at 0x%llx, outside every live allocation\n", call, bytes, p);
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr destination, const void* source, size_t bytes) {
  pthread_mutex_lock(&lock);
  CUresult r = sticky != CUDA_SUCCESS ? sticky : checked_range("cuMemcpyHtoD", destination, bytes);
  if (r == CUDA_SUCCESS) {
    memcpy((void*) destination, source, bytes);
  }
  pthread_mutex_unlock(&lock);
  return r;
}

CUresult cuMemcpyDtoH_v2(void* destination, CUdeviceptr source, size_t bytes) {
  pthread_mutex_lock(&lock);
  CUresult r = take_pending();
  if (r == CUDA_SUCCESS) {
    r = checked_range("cuMemcpyDtoH", source, bytes);
  }
  if (r == CUDA_SUCCESS) {
    memcpy(destination, (const void*) source, bytes);
  }
  pthread_mutex_unlock(&lock);
  return r;
}

CUresult cuMemsetD8_v2(CUdeviceptr destination, unsigned char value, size_t bytes) {
  pthread_mutex_lock(&lock);
  CUresult r = sticky != CUDA_SUCCESS ? sticky : checked_range("cuMemsetD8", destination, bytes);
  if (r == CUDA_SUCCESS) {
    memset((void*) destination, value, bytes);
  }
  pthread_mutex_unlock(&lock);
  return r;
}

// ---- streams and events ----

CUresult cuStreamCreate(CUstream* stream, unsigned flags) {
  (void) flags;
  *stream = malloc(1);
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  free(stream);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  (void) stream;
  return cuCtxSynchronize();
}

CUresult cuEventCreate(struct event** event, unsigned flags) {
  (void) flags;
  *event = calloc(1, sizeof **event);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(struct event* event) {
  free(event);
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(struct event* event, CUstream stream) {
  (void) stream;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  event->milliseconds = now.tv_sec * 1e3 + now.tv_nsec / 1e6;
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(struct event* event) {
  (void) event;
  return cuCtxSynchronize();
}

CUresult cuEventElapsedTime(float* milliseconds, struct event* start, struct event* end) {
  *milliseconds = (float) (end->milliseconds - start->milliseconds);
  return CUDA_SUCCESS;
}

// ---- modules and launches ----

CUresult cuModuleLoadData(struct module** result, const void* image) {
  // A driver reads PTX up to the ISA of its CUDA version (13.0: 9.0; 12.6: 8.5).
  const char* version = strstr(image, "\n.version ");
  int isa_major = 0, isa_minor = 0;
  if (version != NULL && sscanf(version, "\n.version %d.%d", &isa_major, &isa_minor) == 2) {
    int supported = ptx_isa(driver_version());
    if (isa_major * 10 + isa_minor > supported) {
      return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
    }
  }
  uint64_t hash = 0xcbf29ce484222325ull;
  const char* marker = strstr(image, "// kiln-emulation-module: ");
  if (marker != NULL) {
    hash = strtoull(marker + strlen("// kiln-emulation-module: "), NULL, 16);  // PTX from the emulated NVRTC
  } else {
    for (const unsigned char* c = image; *c != 0; c++) {
      hash = (hash ^ *c) * 0x100000001b3ull;
    }
  }
  const char* dir = getenv("KILN_CUDA_EMULATION_MODULES");
  char path[4096];
  snprintf(path, sizeof path, "%s/%016llx.so", dir == NULL ? "." : dir, (unsigned long long) hash);
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "kiln emulation: no host build of this PTX module: %s\n", dlerror());
    return CUDA_ERROR_INVALID_IMAGE;
  }
  struct module* m = malloc(sizeof *m);
  m->library = library;
  m->launch = (launch_fn) dlsym(library, "kiln_emu_launch");
  if (m->launch == NULL) {
    fprintf(stderr, "kiln emulation: %s has no kiln_emu_launch\n", path);
    free(m);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  *result = m;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(struct function** result, struct module* module, const char* name) {
  char symbol[1024];
  snprintf(symbol, sizeof symbol, "kiln_emu_kernel_%s", name);
  const struct kiln_emu_kernel* kernel = dlsym(module->library, symbol);
  if (kernel == NULL) {
    return CUDA_ERROR_NOT_FOUND;
  }
  struct function* f = malloc(sizeof *f);
  f->module = module;
  f->kernel = kernel;
  *result = f;
  return CUDA_SUCCESS;
}

// What the blocks of one run wrote: for every byte of the arrays the kernel may write, the block
// (flat index + 1) that changed it; a byte changed by two blocks is a race between them.
struct writes {
  const char* kernel;
  int count;
  struct allocation** arrays;
  const int* parameters;
  char** seen;           // each array as it was after the previous block
  uint32_t** owners;     // per byte
  int failed;
};

static int after_block(void* context, uint64_t block) {
  struct writes* w = context;
  for (int j = 0; j < w->count; j++) {
    const char* now = (const char*) w->arrays[j]->start;
    size_t bytes = w->arrays[j]->bytes;
    if (memcmp(now, w->seen[j], bytes) == 0) {
      continue;
    }
    for (size_t b = 0; b < bytes; b++) {
      if (now[b] == w->seen[j][b]) {
        continue;
      }
      uint32_t owner = w->owners[j][b];
      if (owner != 0 && owner != (uint32_t) (block + 1)) {
        fprintf(stderr, "kiln emulation: kernel %s: blocks %u and %llu (flat indices) both wrote byte %zu of"
            " parameter %d: a race, which on a GPU loses one of the writes\n", w->kernel, owner - 1,
            (unsigned long long) block, b, w->parameters[j]);
        w->failed = 1;
        return 1;
      }
      w->owners[j][b] = (uint32_t) (block + 1);
      w->seen[j][b] = now[b];
    }
  }
  return 0;
}

// One run of a kernel over the whole grid, in the order `seed` gives (0: index order), with the
// writes of its blocks checked when `w` is not null.
static CUresult execute(struct function* f, const unsigned* grid, const unsigned* block, void** params, uint64_t seed,
    struct writes* w) {
  const struct kiln_emu_kernel* k = f->kernel;
  char error[512] = "";
  install_handler();
  static __thread char* alternate_stack;
  if (alternate_stack == NULL) {
    // the handler must run even when a thread's fiber stack overflowed into its guard page
    stack_t st;
    alternate_stack = malloc(1 << 16);
    st.ss_sp = alternate_stack;
    st.ss_size = 1 << 16;
    st.ss_flags = 0;
    sigaltstack(&st, NULL);
  }
  kernel_thread = pthread_self();
  if (sigsetjmp(kernel_exit, 1) == 0) {
    in_kernel = 1;
    int status = f->module->launch(k, grid, block, params, seed, error, sizeof error, w == NULL ? NULL : after_block, w);
    in_kernel = 0;
    if (status != 0) {
      if (w == NULL || !w->failed) {
        fprintf(stderr, "kiln emulation: kernel %s failed: %s\n", k->name, error);
      }
      return CUDA_ERROR_LAUNCH_FAILED;
    }
    return CUDA_SUCCESS;
  }
  in_kernel = 0;
  struct allocation* a = guard_of(fault_address);
  if (a != NULL) {
    long long offset = (long long) ((CUdeviceptr) fault_address - a->start);
    fprintf(stderr, "kiln emulation: kernel %s touched byte %lld of an allocation of %zu bytes (past its end)\n",
        k->name, offset, a->bytes);
  } else {
    fprintf(stderr, "kiln emulation: kernel %s touched address %p, outside every allocation (or overflowed a"
        " thread's stack)\n", k->name, fault_address);
  }
  return CUDA_ERROR_ILLEGAL_ADDRESS;
}

// Runs a launch, checking it for races two ways unless KILN_CUDA_EMULATION_RACE_CHECK=0:
// - the bytes each block writes: a byte of an array written by two blocks is a race (checked on
//   the writable arrays, the kernel's non-const pointers);
// - the order: the launch runs again from the same memory with blocks and threads in another
//   order, and the arrays must come out with the same bytes. Kiln's kernels are deterministic by
//   design, so results that depend on the order mean threads of a block race, or a block reads
//   what another wrote.
static CUresult run(struct function* f, const unsigned* grid, const unsigned* block, void** params) {
  const struct kiln_emu_kernel* k = f->kernel;
  struct allocation* touched[64];
  int parameter[64];
  int count = 0;
  for (int i = 0; k->params[i] != 0; i++) {
    if (k->params[i] != 'p' && k->params[i] != 'c') {
      continue;
    }
    CUdeviceptr p = *(CUdeviceptr*) params[i];
    if (p == 0) {
      continue;
    }
    struct allocation* a = find(p, 0);
    if (a == NULL) {
      fprintf(stderr, "kiln emulation: kernel %s, parameter %d: 0x%llx is not a live device allocation\n",
          k->name, i, p);
      return fail_later(CUDA_ERROR_ILLEGAL_ADDRESS);
    }
    int seen = 0;
    for (int j = 0; j < count; j++) {
      seen |= touched[j] == a;
    }
    if (!seen && count < 64 && k->params[i] == 'p') {
      touched[count] = a;
      parameter[count++] = i;
    }
  }
  uint64_t seed = env_u64("KILN_CUDA_EMULATION_SEED", 1);
  uint64_t first = seed == 0 ? 0 : seed + launches;
  uint64_t blocks = (uint64_t) grid[0] * grid[1] * grid[2];
  if (env_u64("KILN_CUDA_EMULATION_RACE_CHECK", 1) == 0 || blocks >= 0xFFFFFFFFull) {
    return fail_later(execute(f, grid, block, params, first, NULL));
  }
  char* before[64];
  char* after[64];
  uint32_t* owners[64];
  char* seen[64];
  for (int j = 0; j < count; j++) {
    before[j] = malloc(touched[j]->bytes);
    after[j] = malloc(touched[j]->bytes);
    seen[j] = malloc(touched[j]->bytes);
    owners[j] = calloc(touched[j]->bytes, sizeof(uint32_t));
    memcpy(before[j], (void*) touched[j]->start, touched[j]->bytes);
    memcpy(seen[j], before[j], touched[j]->bytes);
  }
  struct writes w = {k->name, count, touched, parameter, seen, owners, 0};
  CUresult r = execute(f, grid, block, params, first, &w);
  if (r == CUDA_SUCCESS) {
    for (int j = 0; j < count; j++) {
      memcpy(after[j], (void*) touched[j]->start, touched[j]->bytes);
      memcpy((void*) touched[j]->start, before[j], touched[j]->bytes);
    }
    r = execute(f, grid, block, params, (first + 1) * 0x9E3779B97F4A7C15ull + 1, NULL);
    for (int j = 0; j < count && r == CUDA_SUCCESS; j++) {
      const char* a = after[j];
      const char* b = (const char*) touched[j]->start;
      for (size_t byte = 0; byte < touched[j]->bytes; byte++) {
        if (a[byte] != b[byte]) {
          fprintf(stderr, "kiln emulation: kernel %s wrote different bytes into parameter %d when its blocks and"
              " threads ran in another order (first at byte %zu of %zu): a race between threads or blocks\n",
              k->name, parameter[j], byte, touched[j]->bytes);
          r = CUDA_ERROR_LAUNCH_FAILED;
          break;
        }
      }
    }
  }
  for (int j = 0; j < count; j++) {
    free(before[j]);
    free(after[j]);
    free(seen[j]);
    free(owners[j]);
  }
  return fail_later(r);
}

CUresult cuLaunchKernel(struct function* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
    unsigned bz, unsigned shared_bytes, CUstream stream, void** params, void** extra) {
  (void) stream;
  if (f == NULL) return CUDA_ERROR_INVALID_HANDLE;
  if (extra != NULL || shared_bytes != 0 || params == NULL) return CUDA_ERROR_INVALID_VALUE;
  unsigned long long threads = (unsigned long long) bx * by * bz;
  if (gx == 0 || gy == 0 || gz == 0 || threads == 0 || threads > 1024 || bx > 1024 || by > 1024 || bz > 64
      || gx > max_grid(0) || gy > max_grid(1) || gz > max_grid(2)) {
    fprintf(stderr, "kiln emulation: kernel %s: invalid launch, grid (%u, %u, %u) x block (%u, %u, %u)\n",
        f->kernel->name, gx, gy, gz, bx, by, bz);
    return CUDA_ERROR_INVALID_VALUE;
  }
  unsigned grid[3] = {gx, gy, gz};
  unsigned block[3] = {bx, by, bz};
  pthread_mutex_lock(&lock);
  if (sticky != CUDA_SUCCESS) {
    pthread_mutex_unlock(&lock);
    return sticky;
  }
  launches++;
  CUresult r = run(f, grid, block, params);
  pthread_mutex_unlock(&lock);
  return r;
}

// ---- work of the emulated libraries (libcublas_emulation.c) ----

// Runs a library's device work (a cuBLAS GEMM) now, in the calling thread, under the driver's lock.
// Launches run synchronously in the order they are made, so this is the work's place in stream
// order: after every kernel launched before it, before every kernel launched after it. `ranges`
// holds `count` pairs (device address, byte count) that the work reads or writes; one that is not
// inside a live allocation is what a GPU kernel faults on: nothing runs, and
// CUDA_ERROR_ILLEGAL_ADDRESS comes from the next synchronising call, and stays. Returns the sticky
// error when the context has failed (nothing runs), else CUDA_SUCCESS.
__attribute__((visibility("default")))
CUresult kiln_emu_library_launch(const char* name, int count, const unsigned long long* ranges,
    void (*work)(void*), void* context) {
  pthread_mutex_lock(&lock);
  if (sticky != CUDA_SUCCESS) {
    pthread_mutex_unlock(&lock);
    return sticky;
  }
  launches++;
  for (int i = 0; i < count; i++) {
    CUdeviceptr start = ranges[2 * i];
    size_t bytes = (size_t) ranges[2 * i + 1];
    if (bytes != 0 && find(start, bytes) == NULL) {
      fprintf(stderr, "kiln emulation: %s would touch %zu bytes at 0x%llx (operand %d), outside every live"
          " allocation\n", name, bytes, start, i);
      CUresult r = fail_later(CUDA_ERROR_ILLEGAL_ADDRESS);
      pthread_mutex_unlock(&lock);
      return r;
    }
  }
  work(context);
  pthread_mutex_unlock(&lock);
  return CUDA_SUCCESS;
}
