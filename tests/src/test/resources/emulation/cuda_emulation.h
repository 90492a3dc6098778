// Host emulation of the CUDA execution model that Kiln's generated kernels use, so that a host C++
// compiler can build a generated .cu into a shared library that the emulated driver
// (libcuda_emulation.c) loads in place of the PTX module.
//
// A launch runs every block of the grid, one block at a time, and every thread of a block with its
// own threadIdx/blockIdx/blockDim/gridDim. Kernels that synchronise (__syncthreads, through
// kiln::block_reduce) run each thread of a block as a fiber with its own stack: a thread that
// reaches the barrier yields, and the block moves on only when every thread is there, so shared
// memory (a __shared__ array is a static of the kernel function, and blocks never overlap; each
// block finds it full of 0xFF bytes) behaves as on a GPU. A barrier that some threads of a block reach and others never do (undefined on a GPU)
// fails the launch. Blocks, and threads between two barriers, run in an order shuffled by a seed, so
// that results which depend on the order of threads (a race between two threads writing one
// element) show up as disagreements.
//
// What it does not model: the device's libm (the host's is used), fast-math intrinsics' precision,
// warps, memory ordering between blocks, atomics (Kiln emits none).
#pragma once
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
// Shared memory: statics of the kernel functions, gathered in one section so that every block starts
// with garbage (0xFF bytes) in them, as on a GPU, not with the previous block's values.
#define __shared__ static __attribute__((section("kiln_shared")))
extern "C" char __start_kiln_shared[] __attribute__((weak, visibility("hidden")));
extern "C" char __stop_kiln_shared[] __attribute__((weak, visibility("hidden")));

struct kiln_emu_dim3 { unsigned x, y, z; };

namespace kiln_emu {
static kiln_emu_dim3 thread_idx = {0, 0, 0};
static kiln_emu_dim3 block_idx = {0, 0, 0};
static kiln_emu_dim3 block_dim = {1, 1, 1};
static kiln_emu_dim3 grid_dim = {1, 1, 1};
static void sync_threads();
}  // namespace kiln_emu

#define threadIdx (kiln_emu::thread_idx)
#define blockIdx (kiln_emu::block_idx)
#define blockDim (kiln_emu::block_dim)
#define gridDim (kiln_emu::grid_dim)

inline void __syncthreads() { kiln_emu::sync_threads(); }
// Warp shuffles, for kernels in which every thread of the block makes every shuffle call
// (kiln::block_reduce): each thread leaves its value in a slot, all meet at a barrier, and each reads
// its partner's slot in its own warp. Two sets of slots, used by alternate calls of the block, so
// that one barrier a call is enough: a thread writes a set again only two calls later, after the
// barrier of the call between, which every thread passes only once it has read.
namespace kiln_emu {
static unsigned long long block_serial = 0;  // counts the blocks run as fibers (run_fibers)
inline unsigned linear_thread() {
  return thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z);
}
template <typename T> inline T shuffle(T v, unsigned partner_lane) {
  static T slots[2][1024];
  static unsigned long long block_of[1024];
  static unsigned calls[1024];
  const unsigned id = linear_thread();
  if (block_of[id] != block_serial) {
    block_of[id] = block_serial;
    calls[id] = 0;
  }
  const unsigned set = calls[id]++ & 1u;
  slots[set][id] = v;
  sync_threads();
  return slots[set][(id & ~31u) | (partner_lane & 31u)];
}
}  // namespace kiln_emu
template <typename T> inline T __shfl_xor_sync(unsigned, T v, unsigned lane_mask) {
  return kiln_emu::shuffle(v, (kiln_emu::linear_thread() & 31u) ^ lane_mask);
}
template <typename T> inline T __shfl_sync(unsigned, T v, int lane) {
  return kiln_emu::shuffle(v, (unsigned) lane);
}
inline float __int_as_float(int i) { float f; memcpy(&f, &i, sizeof f); return f; }
inline int __float_as_int(float f) { int i; memcpy(&i, &f, sizeof i); return i; }
struct uint2 { unsigned int x, y; };
// CUDA's 16-byte vector types (vector kernels move four 4-byte elements at a time)
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
inline uint2 make_uint2(unsigned int x, unsigned int y) { uint2 v; v.x = x; v.y = y; return v; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) { return (unsigned int) (((unsigned long long) a * b) >> 32); }
inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, sizeof d); return d; }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float a, float b) { return a / b; }
// IEEE operations that nvcc never fuses into multiply-adds; g++ builds the emulation without FMA
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }

// One kernel of the module, as the glue after the .cu describes it to the driver.
struct kiln_emu_kernel {
  const char* name;
  void (*body)(void** params);  // calls the kernel with cuLaunchKernel's parameter array
  int syncs;                     // whether the kernel reaches __syncthreads (runs its threads as fibers)
  const char* params;            // a letter a parameter: 'p' pointer, 'c' const pointer, 'i' int, 'l' long long, 'f', 'd', 'b'
};

namespace kiln_emu {

enum State { READY, AT_BARRIER, DONE };

struct Fiber {
  ucontext_t context;
  kiln_emu_dim3 index;
  State state;
};

static const size_t FIBER_STACK = 256 * 1024;  // below each, an inaccessible guard page
static Fiber fibers[1024];
static char* stacks[1024];
static ucontext_t scheduler;
static Fiber* current = nullptr;
static void (*fiber_body)(void**) = nullptr;
static void** fiber_params = nullptr;

static void sync_threads() {
  if (current == nullptr) {
    if (block_dim.x * block_dim.y * block_dim.z == 1) {
      return;
    }
    fprintf(stderr, "kiln emulation: a kernel not marked as synchronising reached __syncthreads\n");
    abort();
  }
  current->state = AT_BARRIER;
  swapcontext(&current->context, &scheduler);
}

static void fiber_main() {
  fiber_body(fiber_params);
  current->state = DONE;
  // returning resumes uc_link: the scheduler
}

// splitmix64: the schedule's shuffles.
static uint64_t next(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void order(uint64_t* order, uint64_t n, uint64_t* seed) {
  for (uint64_t i = 0; i < n; i++) {
    order[i] = i;
  }
  if (*seed == 0) {
    return;
  }
  for (uint64_t i = n; i > 1; i--) {
    uint64_t j = next(seed) % i;
    uint64_t t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
}

static kiln_emu_dim3 unflatten(uint64_t i, kiln_emu_dim3 d) {
  kiln_emu_dim3 r;
  r.x = (unsigned) (i % d.x);
  r.y = (unsigned) ((i / d.x) % d.y);
  r.z = (unsigned) (i / ((uint64_t) d.x * d.y));
  return r;
}

// Runs one block whose threads synchronise; 0, or -1 when a barrier is not reached by all threads.
static int run_fibers(const kiln_emu_kernel* k, void** params, const uint64_t* threads, unsigned n) {
  block_serial++;
  fiber_body = k->body;
  fiber_params = params;
  for (unsigned i = 0; i < n; i++) {
    Fiber* f = &fibers[i];
    if (stacks[i] == nullptr) {
      size_t page = (size_t) sysconf(_SC_PAGESIZE);
      void* m = mmap(nullptr, FIBER_STACK + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) {
        return -2;
      }
      mprotect(m, page, PROT_NONE);
      stacks[i] = (char*) m + page;
    }
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = stacks[i];
    f->context.uc_stack.ss_size = FIBER_STACK;
    f->context.uc_link = &scheduler;
    makecontext(&f->context, fiber_main, 0);
    f->index = unflatten(threads[i], block_dim);
    f->state = READY;
  }
  for (;;) {
    unsigned waiting = 0;
    unsigned done = 0;
    for (unsigned i = 0; i < n; i++) {
      Fiber* f = &fibers[i];
      if (f->state == READY) {
        current = f;
        thread_idx = f->index;
        swapcontext(&scheduler, &f->context);
        current = nullptr;
      }
      if (f->state == AT_BARRIER) {
        waiting++;
      } else {
        done++;
      }
    }
    if (waiting == 0) {
      return 0;
    }
    if (done > 0) {
      return -1;
    }
    for (unsigned i = 0; i < n; i++) {
      fibers[i].state = READY;
    }
  }
}

}  // namespace kiln_emu

// Runs kernel k over the grid; 0 on success, else writes why into error. Called by the driver, which
// gets after_block(context, block's flat index) after every block (it checks what each block wrote).
extern "C" __attribute__((visibility("default"))) int kiln_emu_launch(
    const kiln_emu_kernel* k, const unsigned* grid, const unsigned* block, void** params, uint64_t seed,
    char* error, int error_length, int (*after_block)(void*, uint64_t), void* context) {
  using namespace kiln_emu;
  current = nullptr;  // a fault may have left the previous launch inside a fiber
  grid_dim = {grid[0], grid[1], grid[2]};
  block_dim = {block[0], block[1], block[2]};
  const uint64_t blocks = (uint64_t) grid[0] * grid[1] * grid[2];
  const unsigned threads = block[0] * block[1] * block[2];
  if (threads == 0 || threads > 1024) {
    snprintf(error, error_length, "%u threads a block", threads);
    return -1;
  }
  if (blocks > (1ull << 32)) {
    snprintf(error, error_length, "%llu blocks: more than the emulation runs", (unsigned long long) blocks);
    return -1;
  }
  uint64_t* block_order = (uint64_t*) malloc(blocks * sizeof(uint64_t));
  uint64_t thread_order[1024];
  if (block_order == nullptr) {
    snprintf(error, error_length, "cannot order %llu blocks", (unsigned long long) blocks);
    return -1;
  }
  order(block_order, blocks, &seed);
  int status = 0;
  for (uint64_t b = 0; b < blocks && status == 0; b++) {
    block_idx = unflatten(block_order[b], grid_dim);
    order(thread_order, threads, &seed);
    if (__start_kiln_shared != nullptr) {
      memset(__start_kiln_shared, 0xFF, (size_t) (__stop_kiln_shared - __start_kiln_shared));
    }
    if (k->syncs) {
      status = run_fibers(k, params, thread_order, threads);
      if (status == -1) {
        snprintf(error, error_length,
            "in block (%u, %u, %u) some threads reached __syncthreads and others had returned", block_idx.x,
            block_idx.y, block_idx.z);
      } else if (status != 0) {
        snprintf(error, error_length, "no memory for the threads' stacks");
      }
    } else {
      for (unsigned t = 0; t < threads; t++) {
        thread_idx = unflatten(thread_order[t], block_dim);
        k->body(params);
      }
    }
    if (status == 0 && after_block != nullptr && after_block(context, block_order[b]) != 0) {
      snprintf(error, error_length, "block (%u, %u, %u) wrote what another block of the launch wrote", block_idx.x,
          block_idx.y, block_idx.z);
      status = -3;
    }
  }
  free(block_order);
  thread_idx = {0, 0, 0};
  block_idx = {0, 0, 0};
  return status;
}
