// An emulated cuBLAS 12: the entry points that JCublas's JNI library (libJCublas2, which links
// against libcublas.so.12) binds, built as libcublas.so.12 beside the emulated driver
// (libcuda_emulation.c), so that Kiln's CudaBlas runs end to end on a machine without a GPU.
//
// - Implemented: handles (cublasCreate_v2, cublasDestroy_v2, cublasSetStream_v2, cublasGetStream_v2,
//   the pointer mode, cublasGetVersion_v2), and the products Kiln calls: cublasSgemm_v2,
//   cublasDgemm_v2, cublasSgemmStridedBatched, cublasDgemmStridedBatched, with cuBLAS's argument
//   checks (CUBLAS_STATUS_INVALID_VALUE) and column-major semantics, summing in the element type in
//   index order. C is not read when beta is 0, A and B are not read when k is 0.
// - Where and when: the product runs on the host, on the emulated device memory (a device pointer is
//   the host address of its allocation), through the driver's kiln_emu_library_launch, so it takes
//   its place in stream order with the kernels (the driver runs launches synchronously, in the
//   order they are made); an operand reaching outside every live allocation faults as a GPU kernel
//   does: CUDA_ERROR_ILLEGAL_ADDRESS at the next synchronising call, sticky. After a failure of the
//   context every product returns CUBLAS_STATUS_EXECUTION_FAILED.
// - Every other function that libJCublas2 imports exists (the dynamic linker wants the whole
//   version node) and returns CUBLAS_STATUS_NOT_SUPPORTED, saying so on stderr.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int cublasStatus_t;
typedef int CUresult;

enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16,
};

enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 };

struct cublas_context {
  void* stream;
  int pointer_mode;
};
typedef struct cublas_context* cublasHandle_t;

// In the emulated driver (libcuda_emulation.c).
extern CUresult kiln_emu_library_launch(const char* name, int count, const unsigned long long* ranges,
    void (*work)(void*), void* context);

// ---- handles ----

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  if (handle == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = calloc(1, sizeof **handle);
  return *handle == NULL ? CUBLAS_STATUS_ALLOC_FAILED : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  free(handle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, void* stream) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, void** stream) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (stream == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *stream = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, int* mode) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

// Host (0) or device (1): alike here, where a device pointer is a host address.
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, int mode) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != 0 && mode != 1) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLAS 12.6.0, as JCublas 12.6.0 expects.
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  (void) handle;
  if (version == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *version = 120600;
  return CUBLAS_STATUS_SUCCESS;
}

size_t cublasGetCudartVersion(void) {
  return 12060;
}

const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "<unrecognized cuBLAS status>";
  }
}

const char* cublasGetStatusString(cublasStatus_t status) {
  return cublasGetStatusName(status);
}

// ---- products ----

// One call's products, column-major: C_q = alpha op(A_q) op(B_q) + beta C_q for q < batch.
struct gemm {
  const char* name;
  int transa;
  int transb;
  int m;
  int n;
  int k;
  const void* alpha;  // host or device memory: the same address space here
  const void* beta;
  uintptr_t a;
  long long lda;
  long long stride_a;
  uintptr_t b;
  long long ldb;
  long long stride_b;
  uintptr_t c;
  long long ldc;
  long long stride_c;
  int batch;
};

// The body for element type T: the sum in T, in index order, as a plain loop would.
#define KILN_GEMM(T, NAME)                                                                         \
  static void NAME(void* context) {                                                               \
    const struct gemm* g = context;                                                               \
    T alpha = *(const T*) g->alpha;                                                               \
    T beta = *(const T*) g->beta;                                                                 \
    for (int q = 0; q < g->batch; q++) {                                                          \
      const T* a = (const T*) (g->a + (uintptr_t) (q * g->stride_a * (long long) sizeof(T)));     \
      const T* b = (const T*) (g->b + (uintptr_t) (q * g->stride_b * (long long) sizeof(T)));     \
      T* c = (T*) (g->c + (uintptr_t) (q * g->stride_c * (long long) sizeof(T)));                 \
      for (long long j = 0; j < g->n; j++) {                                                      \
        for (long long i = 0; i < g->m; i++) {                                                    \
          T sum = 0;                                                                              \
          if (alpha != 0) {                                                                       \
            for (long long p = 0; p < g->k; p++) {                                                \
              T x = g->transa == CUBLAS_OP_N ? a[i + p * g->lda] : a[p + i * g->lda];             \
              T y = g->transb == CUBLAS_OP_N ? b[p + j * g->ldb] : b[j + p * g->ldb];             \
              sum += x * y;                                                                       \
            }                                                                                     \
          }                                                                                       \
          T* out = &c[i + j * g->ldc];                                                            \
          *out = beta == 0 ? alpha * sum : alpha * sum + beta * *out;                             \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }

KILN_GEMM(float, sgemm_work)
KILN_GEMM(double, dgemm_work)

// The bytes that a batch of column-major rows x cols matrices, ld apart, `stride` elements apart,
// occupies: (start, byte count), (0, 0) when none.
static void range(unsigned long long* out, uintptr_t base, long long rows, long long cols, long long ld,
    long long stride, int batch, size_t element) {
  if (rows == 0 || cols == 0 || batch == 0) {
    out[0] = 0;
    out[1] = 0;
    return;
  }
  long long spread = (batch - 1) * stride;
  long long first = spread < 0 ? spread : 0;
  long long last = (spread > 0 ? spread : 0) + (cols - 1) * ld + rows - 1;
  out[0] = (unsigned long long) (base + (uintptr_t) (first * (long long) element));
  out[1] = (unsigned long long) ((last - first + 1) * (long long) element);
}

static int valid_op(int op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

static long long at_least_one(long long v) {
  return v < 1 ? 1 : v;
}

static cublasStatus_t gemm(cublasHandle_t handle, struct gemm* g, size_t element, void (*work)(void*)) {
  if (handle == NULL) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(g->transa) || !valid_op(g->transb) || g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 0
      || g->lda < at_least_one(g->transa == CUBLAS_OP_N ? g->m : g->k)
      || g->ldb < at_least_one(g->transb == CUBLAS_OP_N ? g->k : g->n)
      || g->ldc < at_least_one(g->m) || g->alpha == NULL || g->beta == NULL) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (g->m == 0 || g->n == 0 || g->batch == 0) {
    return CUBLAS_STATUS_SUCCESS;
  }
  unsigned long long ranges[6];
  int reads = g->k > 0;
  range(&ranges[0], g->a, g->transa == CUBLAS_OP_N ? g->m : g->k, g->transa == CUBLAS_OP_N ? g->k : g->m,
      g->lda, g->stride_a, reads ? g->batch : 0, element);
  range(&ranges[2], g->b, g->transb == CUBLAS_OP_N ? g->k : g->n, g->transb == CUBLAS_OP_N ? g->n : g->k,
      g->ldb, g->stride_b, reads ? g->batch : 0, element);
  range(&ranges[4], g->c, g->m, g->n, g->ldc, g->stride_c, g->batch, element);
  return kiln_emu_library_launch(g->name, 3, ranges, work, g) == 0 ? CUBLAS_STATUS_SUCCESS
                                                                    : CUBLAS_STATUS_EXECUTION_FAILED;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
    const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta, float* c, int ldc) {
  struct gemm g = {"cublasSgemm_v2", transa, transb, m, n, k, alpha, beta, (uintptr_t) a, lda, 0,
      (uintptr_t) b, ldb, 0, (uintptr_t) c, ldc, 0, 1};
  return gemm(handle, &g, sizeof(float), sgemm_work);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
    const double* alpha, const double* a, int lda, const double* b, int ldb, const double* beta, double* c,
    int ldc) {
  struct gemm g = {"cublasDgemm_v2", transa, transb, m, n, k, alpha, beta, (uintptr_t) a, lda, 0,
      (uintptr_t) b, ldb, 0, (uintptr_t) c, ldc, 0, 1};
  return gemm(handle, &g, sizeof(double), dgemm_work);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
    const float* alpha, const float* a, int lda, long long stride_a, const float* b, int ldb, long long stride_b,
    const float* beta, float* c, int ldc, long long stride_c, int batch) {
  struct gemm g = {"cublasSgemmStridedBatched", transa, transb, m, n, k, alpha, beta, (uintptr_t) a, lda,
      stride_a, (uintptr_t) b, ldb, stride_b, (uintptr_t) c, ldc, stride_c, batch};
  return gemm(handle, &g, sizeof(float), sgemm_work);
}

cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, int transa, int transb, int m, int n, int k,
    const double* alpha, const double* a, int lda, long long stride_a, const double* b, int ldb,
    long long stride_b, const double* beta, double* c, int ldc, long long stride_c, int batch) {
  struct gemm g = {"cublasDgemmStridedBatched", transa, transb, m, n, k, alpha, beta, (uintptr_t) a, lda,
      stride_a, (uintptr_t) b, ldb, stride_b, (uintptr_t) c, ldc, stride_c, batch};
  return gemm(handle, &g, sizeof(double), dgemm_work);
}

// ---- everything else libJCublas2 imports (nm -D --undefined-only) ----

#define X(name)                                                                                   \
  cublasStatus_t name(void) {                                                                     \
    fprintf(stderr, "kiln emulation: cuBLAS function %s is not emulated\n", #name);               \
    return CUBLAS_STATUS_NOT_SUPPORTED;                                                           \
  }
#define KILN_NOT_EMULATED \
    X(cublasAsumEx) X(cublasAsumEx_64) X(cublasAxpyEx) X(cublasAxpyEx_64) X(cublasCaxpy_v2) X(cublasCaxpy_v2_64) \
    X(cublasCcopy_v2) X(cublasCcopy_v2_64) X(cublasCdgmm) X(cublasCdgmm_64) X(cublasCdotc_v2) \
    X(cublasCdotc_v2_64) X(cublasCdotu_v2) X(cublasCdotu_v2_64) X(cublasCgbmv_v2) X(cublasCgbmv_v2_64) \
    X(cublasCgeam) X(cublasCgeam_64) X(cublasCgelsBatched) X(cublasCgemm3m) X(cublasCgemm3mBatched) \
    X(cublasCgemm3mBatched_64) X(cublasCgemm3mEx) X(cublasCgemm3mEx_64) X(cublasCgemm3mStridedBatched) \
    X(cublasCgemm3mStridedBatched_64) X(cublasCgemm3m_64) X(cublasCgemmBatched) X(cublasCgemmBatched_64) \
    X(cublasCgemmEx) X(cublasCgemmEx_64) X(cublasCgemmStridedBatched) X(cublasCgemmStridedBatched_64) \
    X(cublasCgemm_v2) X(cublasCgemm_v2_64) X(cublasCgemvBatched) X(cublasCgemvBatched_64) \
    X(cublasCgemvStridedBatched) X(cublasCgemvStridedBatched_64) X(cublasCgemv_v2) X(cublasCgemv_v2_64) \
    X(cublasCgeqrfBatched) X(cublasCgerc_v2) X(cublasCgerc_v2_64) X(cublasCgeru_v2) X(cublasCgeru_v2_64) \
    X(cublasCgetrfBatched) X(cublasCgetriBatched) X(cublasCgetrsBatched) X(cublasChbmv_v2) X(cublasChbmv_v2_64) \
    X(cublasChemm_v2) X(cublasChemm_v2_64) X(cublasChemv_v2) X(cublasChemv_v2_64) X(cublasCher2_v2) \
    X(cublasCher2_v2_64) X(cublasCher2k_v2) X(cublasCher2k_v2_64) X(cublasCher_v2) X(cublasCher_v2_64) \
    X(cublasCherk3mEx) X(cublasCherk3mEx_64) X(cublasCherkEx) X(cublasCherkEx_64) X(cublasCherk_v2) \
    X(cublasCherk_v2_64) X(cublasCherkx) X(cublasCherkx_64) X(cublasChpmv_v2) X(cublasChpmv_v2_64) \
    X(cublasChpr2_v2) X(cublasChpr2_v2_64) X(cublasChpr_v2) X(cublasChpr_v2_64) X(cublasCmatinvBatched) \
    X(cublasCopyEx) X(cublasCopyEx_64) X(cublasCrot_v2) X(cublasCrot_v2_64) X(cublasCrotg_v2) X(cublasCscal_v2) \
    X(cublasCscal_v2_64) X(cublasCsrot_v2) X(cublasCsrot_v2_64) X(cublasCsscal_v2) X(cublasCsscal_v2_64) \
    X(cublasCswap_v2) X(cublasCswap_v2_64) X(cublasCsymm_v2) X(cublasCsymm_v2_64) X(cublasCsymv_v2) \
    X(cublasCsymv_v2_64) X(cublasCsyr2_v2) X(cublasCsyr2_v2_64) X(cublasCsyr2k_v2) X(cublasCsyr2k_v2_64) \
    X(cublasCsyr_v2) X(cublasCsyr_v2_64) X(cublasCsyrk3mEx) X(cublasCsyrk3mEx_64) X(cublasCsyrkEx) \
    X(cublasCsyrkEx_64) X(cublasCsyrk_v2) X(cublasCsyrk_v2_64) X(cublasCsyrkx) X(cublasCsyrkx_64) \
    X(cublasCtbmv_v2) X(cublasCtbmv_v2_64) X(cublasCtbsv_v2) X(cublasCtbsv_v2_64) X(cublasCtpmv_v2) \
    X(cublasCtpmv_v2_64) X(cublasCtpsv_v2) X(cublasCtpsv_v2_64) X(cublasCtpttr) X(cublasCtrmm_v2) \
    X(cublasCtrmm_v2_64) X(cublasCtrmv_v2) X(cublasCtrmv_v2_64) X(cublasCtrsmBatched) X(cublasCtrsmBatched_64) \
    X(cublasCtrsm_v2) X(cublasCtrsm_v2_64) X(cublasCtrsv_v2) X(cublasCtrsv_v2_64) X(cublasCtrttp) \
    X(cublasDasum_v2) X(cublasDasum_v2_64) X(cublasDaxpy_v2) X(cublasDaxpy_v2_64) X(cublasDcopy_v2) \
    X(cublasDcopy_v2_64) X(cublasDdgmm) X(cublasDdgmm_64) X(cublasDdot_v2) X(cublasDdot_v2_64) X(cublasDgbmv_v2) \
    X(cublasDgbmv_v2_64) X(cublasDgeam) X(cublasDgeam_64) X(cublasDgelsBatched) X(cublasDgemmBatched) \
    X(cublasDgemmBatched_64) X(cublasDgemmStridedBatched_64) X(cublasDgemm_v2_64) X(cublasDgemvBatched) \
    X(cublasDgemvBatched_64) X(cublasDgemvStridedBatched) X(cublasDgemvStridedBatched_64) X(cublasDgemv_v2) \
    X(cublasDgemv_v2_64) X(cublasDgeqrfBatched) X(cublasDger_v2) X(cublasDger_v2_64) X(cublasDgetrfBatched) \
    X(cublasDgetriBatched) X(cublasDgetrsBatched) X(cublasDmatinvBatched) X(cublasDnrm2_v2) X(cublasDnrm2_v2_64) \
    X(cublasDotEx) X(cublasDotEx_64) X(cublasDotcEx) X(cublasDotcEx_64) X(cublasDrot_v2) X(cublasDrot_v2_64) \
    X(cublasDrotg_v2) X(cublasDrotm_v2) X(cublasDrotm_v2_64) X(cublasDrotmg_v2) X(cublasDsbmv_v2) \
    X(cublasDsbmv_v2_64) X(cublasDscal_v2) X(cublasDscal_v2_64) X(cublasDspmv_v2) X(cublasDspmv_v2_64) \
    X(cublasDspr2_v2) X(cublasDspr2_v2_64) X(cublasDspr_v2) X(cublasDspr_v2_64) X(cublasDswap_v2) \
    X(cublasDswap_v2_64) X(cublasDsymm_v2) X(cublasDsymm_v2_64) X(cublasDsymv_v2) X(cublasDsymv_v2_64) \
    X(cublasDsyr2_v2) X(cublasDsyr2_v2_64) X(cublasDsyr2k_v2) X(cublasDsyr2k_v2_64) X(cublasDsyr_v2) \
    X(cublasDsyr_v2_64) X(cublasDsyrk_v2) X(cublasDsyrk_v2_64) X(cublasDsyrkx) X(cublasDsyrkx_64) \
    X(cublasDtbmv_v2) X(cublasDtbmv_v2_64) X(cublasDtbsv_v2) X(cublasDtbsv_v2_64) X(cublasDtpmv_v2) \
    X(cublasDtpmv_v2_64) X(cublasDtpsv_v2) X(cublasDtpsv_v2_64) X(cublasDtpttr) X(cublasDtrmm_v2) \
    X(cublasDtrmm_v2_64) X(cublasDtrmv_v2) X(cublasDtrmv_v2_64) X(cublasDtrsmBatched) X(cublasDtrsmBatched_64) \
    X(cublasDtrsm_v2) X(cublasDtrsm_v2_64) X(cublasDtrsv_v2) X(cublasDtrsv_v2_64) X(cublasDtrttp) \
    X(cublasDzasum_v2) X(cublasDzasum_v2_64) X(cublasDznrm2_v2) X(cublasDznrm2_v2_64) X(cublasGemmBatchedEx) \
    X(cublasGemmBatchedEx_64) X(cublasGemmEx) X(cublasGemmEx_64) X(cublasGemmStridedBatchedEx) \
    X(cublasGemmStridedBatchedEx_64) X(cublasGetAtomicsMode) X(cublasGetMathMode) X(cublasGetMatrix) \
    X(cublasGetMatrixAsync) X(cublasGetMatrixAsync_64) X(cublasGetMatrix_64) X(cublasGetProperty) \
    X(cublasGetSmCountTarget) X(cublasGetVector) X(cublasGetVectorAsync) X(cublasGetVectorAsync_64) \
    X(cublasGetVector_64) X(cublasIamaxEx) X(cublasIamaxEx_64) X(cublasIaminEx) X(cublasIaminEx_64) \
    X(cublasIcamax_v2) X(cublasIcamax_v2_64) X(cublasIcamin_v2) X(cublasIcamin_v2_64) X(cublasIdamax_v2) \
    X(cublasIdamax_v2_64) X(cublasIdamin_v2) X(cublasIdamin_v2_64) X(cublasIsamax_v2) X(cublasIsamax_v2_64) \
    X(cublasIsamin_v2) X(cublasIsamin_v2_64) X(cublasIzamax_v2) X(cublasIzamax_v2_64) X(cublasIzamin_v2) \
    X(cublasIzamin_v2_64) X(cublasNrm2Ex) X(cublasNrm2Ex_64) X(cublasRotEx) X(cublasRotEx_64) X(cublasRotgEx) \
    X(cublasRotmEx) X(cublasRotmEx_64) X(cublasRotmgEx) X(cublasSasum_v2) X(cublasSasum_v2_64) X(cublasSaxpy_v2) \
    X(cublasSaxpy_v2_64) X(cublasScalEx) X(cublasScalEx_64) X(cublasScasum_v2) X(cublasScasum_v2_64) \
    X(cublasScnrm2_v2) X(cublasScnrm2_v2_64) X(cublasScopy_v2) X(cublasScopy_v2_64) X(cublasSdgmm) \
    X(cublasSdgmm_64) X(cublasSdot_v2) X(cublasSdot_v2_64) X(cublasSetAtomicsMode) X(cublasSetMathMode) \
    X(cublasSetMatrix) X(cublasSetMatrixAsync) X(cublasSetMatrixAsync_64) X(cublasSetMatrix_64) \
    X(cublasSetSmCountTarget) X(cublasSetVector) X(cublasSetVectorAsync) X(cublasSetVectorAsync_64) \
    X(cublasSetVector_64) X(cublasSetWorkspace_v2) X(cublasSgbmv_v2) X(cublasSgbmv_v2_64) X(cublasSgeam) \
    X(cublasSgeam_64) X(cublasSgelsBatched) X(cublasSgemmBatched) X(cublasSgemmBatched_64) X(cublasSgemmEx) \
    X(cublasSgemmEx_64) X(cublasSgemmStridedBatched_64) X(cublasSgemm_v2_64) X(cublasSgemvBatched) \
    X(cublasSgemvBatched_64) X(cublasSgemvStridedBatched) X(cublasSgemvStridedBatched_64) X(cublasSgemv_v2) \
    X(cublasSgemv_v2_64) X(cublasSgeqrfBatched) X(cublasSger_v2) X(cublasSger_v2_64) X(cublasSgetrfBatched) \
    X(cublasSgetriBatched) X(cublasSgetrsBatched) X(cublasSmatinvBatched) X(cublasSnrm2_v2) X(cublasSnrm2_v2_64) \
    X(cublasSrot_v2) X(cublasSrot_v2_64) X(cublasSrotg_v2) X(cublasSrotm_v2) X(cublasSrotm_v2_64) \
    X(cublasSrotmg_v2) X(cublasSsbmv_v2) X(cublasSsbmv_v2_64) X(cublasSscal_v2) X(cublasSscal_v2_64) \
    X(cublasSspmv_v2) X(cublasSspmv_v2_64) X(cublasSspr2_v2) X(cublasSspr2_v2_64) X(cublasSspr_v2) \
    X(cublasSspr_v2_64) X(cublasSswap_v2) X(cublasSswap_v2_64) X(cublasSsymm_v2) X(cublasSsymm_v2_64) \
    X(cublasSsymv_v2) X(cublasSsymv_v2_64) X(cublasSsyr2_v2) X(cublasSsyr2_v2_64) X(cublasSsyr2k_v2) \
    X(cublasSsyr2k_v2_64) X(cublasSsyr_v2) X(cublasSsyr_v2_64) X(cublasSsyrk_v2) X(cublasSsyrk_v2_64) \
    X(cublasSsyrkx) X(cublasSsyrkx_64) X(cublasStbmv_v2) X(cublasStbmv_v2_64) X(cublasStbsv_v2) \
    X(cublasStbsv_v2_64) X(cublasStpmv_v2) X(cublasStpmv_v2_64) X(cublasStpsv_v2) X(cublasStpsv_v2_64) \
    X(cublasStpttr) X(cublasStrmm_v2) X(cublasStrmm_v2_64) X(cublasStrmv_v2) X(cublasStrmv_v2_64) \
    X(cublasStrsmBatched) X(cublasStrsmBatched_64) X(cublasStrsm_v2) X(cublasStrsm_v2_64) X(cublasStrsv_v2) \
    X(cublasStrsv_v2_64) X(cublasStrttp) X(cublasSwapEx) X(cublasSwapEx_64) X(cublasZaxpy_v2) \
    X(cublasZaxpy_v2_64) X(cublasZcopy_v2) X(cublasZcopy_v2_64) X(cublasZdgmm) X(cublasZdgmm_64) \
    X(cublasZdotc_v2) X(cublasZdotc_v2_64) X(cublasZdotu_v2) X(cublasZdotu_v2_64) X(cublasZdrot_v2) \
    X(cublasZdrot_v2_64) X(cublasZdscal_v2) X(cublasZdscal_v2_64) X(cublasZgbmv_v2) X(cublasZgbmv_v2_64) \
    X(cublasZgeam) X(cublasZgeam_64) X(cublasZgelsBatched) X(cublasZgemm3m) X(cublasZgemm3m_64) \
    X(cublasZgemmBatched) X(cublasZgemmBatched_64) X(cublasZgemmStridedBatched) X(cublasZgemmStridedBatched_64) \
    X(cublasZgemm_v2) X(cublasZgemm_v2_64) X(cublasZgemvBatched) X(cublasZgemvBatched_64) \
    X(cublasZgemvStridedBatched) X(cublasZgemvStridedBatched_64) X(cublasZgemv_v2) X(cublasZgemv_v2_64) \
    X(cublasZgeqrfBatched) X(cublasZgerc_v2) X(cublasZgerc_v2_64) X(cublasZgeru_v2) X(cublasZgeru_v2_64) \
    X(cublasZgetrfBatched) X(cublasZgetriBatched) X(cublasZgetrsBatched) X(cublasZhbmv_v2) X(cublasZhbmv_v2_64) \
    X(cublasZhemm_v2) X(cublasZhemm_v2_64) X(cublasZhemv_v2) X(cublasZhemv_v2_64) X(cublasZher2_v2) \
    X(cublasZher2_v2_64) X(cublasZher2k_v2) X(cublasZher2k_v2_64) X(cublasZher_v2) X(cublasZher_v2_64) \
    X(cublasZherk_v2) X(cublasZherk_v2_64) X(cublasZherkx) X(cublasZherkx_64) X(cublasZhpmv_v2) \
    X(cublasZhpmv_v2_64) X(cublasZhpr2_v2) X(cublasZhpr2_v2_64) X(cublasZhpr_v2) X(cublasZhpr_v2_64) \
    X(cublasZmatinvBatched) X(cublasZrot_v2) X(cublasZrot_v2_64) X(cublasZrotg_v2) X(cublasZscal_v2) \
    X(cublasZscal_v2_64) X(cublasZswap_v2) X(cublasZswap_v2_64) X(cublasZsymm_v2) X(cublasZsymm_v2_64) \
    X(cublasZsymv_v2) X(cublasZsymv_v2_64) X(cublasZsyr2_v2) X(cublasZsyr2_v2_64) X(cublasZsyr2k_v2) \
    X(cublasZsyr2k_v2_64) X(cublasZsyr_v2) X(cublasZsyr_v2_64) X(cublasZsyrk_v2) X(cublasZsyrk_v2_64) \
    X(cublasZsyrkx) X(cublasZsyrkx_64) X(cublasZtbmv_v2) X(cublasZtbmv_v2_64) X(cublasZtbsv_v2) \
    X(cublasZtbsv_v2_64) X(cublasZtpmv_v2) X(cublasZtpmv_v2_64) X(cublasZtpsv_v2) X(cublasZtpsv_v2_64) \
    X(cublasZtpttr) X(cublasZtrmm_v2) X(cublasZtrmm_v2_64) X(cublasZtrmv_v2) X(cublasZtrmv_v2_64) \
    X(cublasZtrsmBatched) X(cublasZtrsmBatched_64) X(cublasZtrsm_v2) X(cublasZtrsm_v2_64) X(cublasZtrsv_v2) \
    X(cublasZtrsv_v2_64) X(cublasZtrttp)
KILN_NOT_EMULATED
