/*
 * Kiln's JNI shim for dev.kiln.runtime.cpu.HeapArrayGemm: a BLAS's cblas_sgemm and cblas_dgemm
 * (OpenBLAS's, or Intel MKL's) called on Java arrays in place, inside JNI critical regions, so
 * that a product neither copies its operands into off-heap memory nor its result back (on the
 * 2-core machine that staging cost 15-30% of a product's time).
 *
 * The functions take the address of the cblas routine, found by lookup() in the BLAS library that
 * Java loaded already (OpenBLAS through JavaCPP, or MKL's libmkl_rt through System.load), so this
 * library links against nothing but libc (and libdl). Java has checked every size, offset and
 * leading dimension against the arrays' lengths before calling (GemmChecks).
 *
 * Inside a critical region the thread calls no JNI function and waits for no Java thread: it
 * only runs the product, single-threaded, on the BLAS's own threads, or divided by OpenBLAS among
 * the caller and the shim's native workers (shareThreads below), none of them Java threads.
 *
 * Status: 0 the product ran; 1 the JVM handed a copy of an array instead of the array (HotSpot
 * does not, except under -Xcheck:jni), so nothing was written and Java must not use this path;
 * 2 a region could not be entered (an OutOfMemoryError is pending). Nothing is written unless 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { CBLAS_ROW_MAJOR = 101, CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112 };

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *,
                         int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);

/* Enters the three regions; on failure leaves none entered and returns the status. */
static int enter(JNIEnv *env, jarray a, jarray b, jarray c, void **pa, void **pb, void **pc) {
  jboolean copyA = JNI_FALSE, copyB = JNI_FALSE, copyC = JNI_FALSE;
  *pa = (*env)->GetPrimitiveArrayCritical(env, a, &copyA);
  if (*pa == NULL) {
    return 2;
  }
  *pb = (*env)->GetPrimitiveArrayCritical(env, b, &copyB);
  if (*pb == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, a, *pa, JNI_ABORT);
    return 2;
  }
  *pc = (*env)->GetPrimitiveArrayCritical(env, c, &copyC);
  if (*pc == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, b, *pb, JNI_ABORT);
    (*env)->ReleasePrimitiveArrayCritical(env, a, *pa, JNI_ABORT);
    return 2;
  }
  if (copyA || copyB || copyC) {
    /* A copy of C written back would overwrite the rows another thread multiplies at once. */
    (*env)->ReleasePrimitiveArrayCritical(env, c, *pc, JNI_ABORT);
    (*env)->ReleasePrimitiveArrayCritical(env, b, *pb, JNI_ABORT);
    (*env)->ReleasePrimitiveArrayCritical(env, a, *pa, JNI_ABORT);
    return 1;
  }
  return 0;
}

static void leave(JNIEnv *env, jarray a, jarray b, jarray c, void *pa, void *pb, void *pc) {
  /* The regions are the arrays themselves: there is nothing to copy back. */
  (*env)->ReleasePrimitiveArrayCritical(env, c, pc, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, b, pb, JNI_ABORT);
  (*env)->ReleasePrimitiveArrayCritical(env, a, pa, JNI_ABORT);
}

static int op(jboolean trans) { return trans ? CBLAS_TRANS : CBLAS_NO_TRANS; }

JNIEXPORT jint JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_sgemmInPlace(
    JNIEnv *env, jclass cls, jlong fn, jboolean transA, jboolean transB, jint m, jint n, jint k,
    jfloatArray a, jint aOffset, jint lda, jfloatArray b, jint bOffset, jint ldb, jfloat beta,
    jfloatArray c, jint cOffset, jint ldc) {
  void *pa, *pb, *pc;
  int status = enter(env, a, b, c, &pa, &pb, &pc);
  if (status != 0) {
    return status;
  }
  ((sgemm_fn)(intptr_t)fn)(CBLAS_ROW_MAJOR, op(transA), op(transB), m, n, k, 1.0f,
                           (const float *)pa + aOffset, lda, (const float *)pb + bOffset, ldb,
                           beta, (float *)pc + cOffset, ldc);
  leave(env, a, b, c, pa, pb, pc);
  return 0;
}

JNIEXPORT jint JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_dgemmInPlace(
    JNIEnv *env, jclass cls, jlong fn, jboolean transA, jboolean transB, jint m, jint n, jint k,
    jdoubleArray a, jint aOffset, jint lda, jdoubleArray b, jint bOffset, jint ldb, jdouble beta,
    jdoubleArray c, jint cOffset, jint ldc) {
  void *pa, *pb, *pc;
  int status = enter(env, a, b, c, &pa, &pb, &pc);
  if (status != 0) {
    return status;
  }
  ((dgemm_fn)(intptr_t)fn)(CBLAS_ROW_MAJOR, op(transA), op(transB), m, n, k, 1.0,
                           (const double *)pa + aOffset, lda, (const double *)pb + bOffset, ldb,
                           beta, (double *)pc + cOffset, ldc);
  leave(env, a, b, c, pa, pb, pc);
  return 0;
}

/* Whether this JVM hands copies of arrays to critical regions (then the shim is not used). */
JNIEXPORT jboolean JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_copiesArrays(
    JNIEnv *env, jclass cls, jfloatArray probe) {
  jboolean copy = JNI_FALSE;
  void *p = (*env)->GetPrimitiveArrayCritical(env, probe, &copy);
  if (p == NULL) {
    return JNI_TRUE;
  }
  (*env)->ReleasePrimitiveArrayCritical(env, probe, p, JNI_ABORT);
  return copy;
}

/*
 * The address of `symbol` in the already loaded library whose soname is `library` (JavaCPP loads
 * OpenBLAS privately, and System.load MKL, so their symbols are not in the global scope); 0 when
 * either is not found.
 * Nothing is loaded here: RTLD_NOLOAD.
 */
JNIEXPORT jlong JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_lookup(
    JNIEnv *env, jclass cls, jstring library, jstring symbol) {
  const char *lib = (*env)->GetStringUTFChars(env, library, NULL);
  if (lib == NULL) {
    return 0;
  }
  const char *sym = (*env)->GetStringUTFChars(env, symbol, NULL);
  if (sym == NULL) {
    (*env)->ReleaseStringUTFChars(env, library, lib);
    return 0;
  }
  void *address = NULL;
  void *handle = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
  if (handle != NULL) {
    address = dlsym(handle, sym);
    dlclose(handle);  /* drops the reference RTLD_NOLOAD took; JavaCPP's stays */
  }
  (*env)->ReleaseStringUTFChars(env, symbol, sym);
  (*env)->ReleaseStringUTFChars(env, library, lib);
  return (jlong)(intptr_t)address;
}

/*
 * Calls a BLAS service routine that takes one int: int f(int) (callInt) or void f(int)
 * (callVoid). Used to configure Intel MKL once it is loaded (MKL_Set_Num_Threads, MKL_CBWR_Set),
 * by the address lookup() found.
 */
JNIEXPORT jint JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_callInt(
    JNIEnv *env, jclass cls, jlong fn, jint arg) {
  return ((int (*)(int))(intptr_t)fn)(arg);
}

JNIEXPORT void JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_callVoid(
    JNIEnv *env, jclass cls, jlong fn, jint arg) {
  ((void (*)(int))(intptr_t)fn)(arg);
}

/*
 * OpenBLAS's threads callback (openblas_set_threads_callback_function, OpenBLAS 0.3.28 on): where
 * OpenBLAS would hand the jobs of a divided product to its own pthreads, it calls
 * run_jobs(sync, dojob, numjobs, size, jobs, data), which must run dojob(i, jobs + i*size, data)
 * for every i, all at once (a level-3 job waits for the others' packed panels: run one after
 * another they would never finish), and return when all are done.
 *
 * Here job 0 runs on the caller and job i on native worker i-1. After a job a worker watches for
 * the next one for SPIN_NANOS (products often come in runs: an LSTM's two gate products, a
 * gradient's two), then sleeps on a condition variable until woken: it does not spin on, as
 * OpenBLAS's own pthreads do for a long while after each product, taking the cores from the Kiln
 * kernels that follow. The caller likewise watches for its workers' jobs to end before it sleeps. Products run one at a
 * time (OpenBLAS's jobs of two products would share its per-job buffers). A product divided into
 * more jobs than there are workers (not expected: OpenBLAS is told workers + 1 threads) gets a
 * pthread of its own for each job beyond them.
 */
typedef void (*dojob_fn)(int, void *, int);
typedef void (*threads_callback_fn)(int, dojob_fn, int, size_t, void *, int);
typedef void (*set_callback_fn)(threads_callback_fn);

/* How long a worker watches for its next job, and the caller for the workers, before sleeping. */
#define SPIN_NANOS 50000L

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ __volatile__("pause");
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static long long nanos(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Calls ready(arg) until it answers nonzero, for up to SPIN_NANOS; its last answer. */
static int watch(int (*ready)(const void *), const void *arg) {
  long long end = 0;
  for (int i = 0;; i++) {
    if (ready(arg)) {
      return 1;
    }
    if ((i & 63) == 0) {
      long long now = nanos();
      if (end == 0) {
        end = now + SPIN_NANOS;
      } else if (now >= end) {
        return 0;
      }
    }
    relax();
  }
}

/* Whether a job arrived in the slot (a dojob_fn) at `slot`. */
static int job_arrived(const void *slot) {
  return __atomic_load_n((dojob_fn const *)slot, __ATOMIC_ACQUIRE) != NULL;
}

typedef struct {
  const int *count;
  int want;
} count_goal_t;

/* Whether the count reached what the count_goal_t at `goal` wants. */
static int count_reached(const void *goal) {
  const count_goal_t *g = (const count_goal_t *)goal;
  return __atomic_load_n(g->count, __ATOMIC_ACQUIRE) >= g->want;
}

typedef struct {
  pthread_t thread;
  dojob_fn dojob;  /* the job to run, NULL while idle; set last (release), read first (acquire) */
  int number;
  void *job;
  int data;
} worker_t;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;  /* workers' slots, done */
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t work_done = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t product_lock = PTHREAD_MUTEX_INITIALIZER;  /* one product at a time */
static worker_t *workers;
static int worker_count;
static int done;  /* jobs finished of the product in flight */

static void *work(void *arg) {
  worker_t *self = (worker_t *)arg;
  for (;;) {
    watch(job_arrived, &self->dojob);
    pthread_mutex_lock(&pool_lock);
    while (self->dojob == NULL) {
      pthread_cond_wait(&work_ready, &pool_lock);
    }
    dojob_fn dojob = self->dojob;
    int number = self->number;
    void *job = self->job;
    int data = self->data;
    pthread_mutex_unlock(&pool_lock);
    dojob(number, job, data);
    pthread_mutex_lock(&pool_lock);
    __atomic_store_n(&self->dojob, NULL, __ATOMIC_RELAXED);
    __atomic_add_fetch(&done, 1, __ATOMIC_RELEASE);
    pthread_cond_signal(&work_done);
    pthread_mutex_unlock(&pool_lock);
  }
  return NULL;
}

typedef struct {
  dojob_fn dojob;
  int number;
  void *job;
  int data;
} extra_t;

static void *run_extra(void *arg) {
  extra_t *e = (extra_t *)arg;
  e->dojob(e->number, e->job, e->data);
  return NULL;
}

static void run_jobs(int sync, dojob_fn dojob, int numjobs, size_t size, void *jobs, int data) {
  if (numjobs <= 0) {
    return;
  }
  pthread_mutex_lock(&product_lock);  /* job i uses OpenBLAS's buffer i: one product at a time */
  if (numjobs == 1) {
    dojob(0, jobs, data);
    pthread_mutex_unlock(&product_lock);
    return;
  }
  int pooled = numjobs - 1 < worker_count ? numjobs - 1 : worker_count;
  int extras = numjobs - 1 - pooled;
  extra_t *extra = extras > 0 ? calloc((size_t)extras, sizeof(extra_t)) : NULL;
  pthread_t *extra_threads = extras > 0 ? calloc((size_t)extras, sizeof(pthread_t)) : NULL;
  pthread_mutex_lock(&pool_lock);
  __atomic_store_n(&done, 0, __ATOMIC_RELAXED);
  for (int i = 0; i < pooled; i++) {
    workers[i].number = i + 1;
    workers[i].job = (char *)jobs + (size_t)(i + 1) * size;
    workers[i].data = data;
    __atomic_store_n(&workers[i].dojob, dojob, __ATOMIC_RELEASE);
  }
  pthread_cond_broadcast(&work_ready);
  pthread_mutex_unlock(&pool_lock);
  int started = 0;
  for (int i = 0; i < extras && extra != NULL && extra_threads != NULL; i++) {
    extra[i] = (extra_t){dojob, pooled + 1 + i, (char *)jobs + (size_t)(pooled + 1 + i) * size, data};
    if (pthread_create(&extra_threads[i], NULL, run_extra, &extra[i]) != 0) {
      break;
    }
    started++;
  }
  if (started < extras) {
    /* Only when something else raised OpenBLAS's thread count above the workers and no thread can
     * be started: a job left unrun would hang the others, so stop here loudly rather than wait
     * forever or write half a product. */
    fprintf(stderr, "kiln-blas: OpenBLAS divided a product into %d jobs, more than Kiln's %d native"
            " workers and the caller, and no thread could be started for the rest; aborting rather"
            " than hang (run with -Dkiln.blas.threading=kiln)\n", numjobs, worker_count);
    fflush(stderr);
    abort();
  }
  dojob(0, jobs, data);
  for (int i = 0; i < started; i++) {
    pthread_join(extra_threads[i], NULL);
  }
  count_goal_t all_done = {&done, pooled};
  if (!watch(count_reached, &all_done)) {
    pthread_mutex_lock(&pool_lock);
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < pooled) {
      pthread_cond_wait(&work_done, &pool_lock);
    }
    pthread_mutex_unlock(&pool_lock);
  }
  free(extra);
  free(extra_threads);
  pthread_mutex_unlock(&product_lock);
}

/*
 * Starts `count` native workers (once: a second call changes nothing) and hands OpenBLAS the
 * callback through its openblas_set_threads_callback_function at `set_callback`. 0: done; 1: no
 * such function (an OpenBLAS before 0.3.28); 2: the workers could not be started; 3: this library
 * could not be pinned in memory (dlopen RTLD_NODELETE). Unless 0 nothing is registered and
 * OpenBLAS keeps its own threads.
 */
JNIEXPORT jint JNICALL Java_dev_kiln_runtime_cpu_HeapArrayGemm_shareThreads(
    JNIEnv *env, jclass cls, jlong set_callback, jint count) {
  if (set_callback == 0) {
    return 1;
  }
  pthread_mutex_lock(&product_lock);
  if (workers == NULL && count > 0) {
    worker_t *made = calloc((size_t)count, sizeof(worker_t));
    if (made == NULL) {
      pthread_mutex_unlock(&product_lock);
      return 2;
    }
    for (int i = 0; i < count; i++) {
      if (pthread_create(&made[i].thread, NULL, work, &made[i]) != 0) {
        /* Keep the ones started as the pool (they sleep on slots no job fills, since no callback
         * is registered): a later call then starts none again. */
        workers = made;
        worker_count = i;
        pthread_mutex_unlock(&product_lock);
        return 2;
      }
      pthread_detach(made[i].thread);
    }
    workers = made;
    worker_count = count;
  } else if (worker_count < count) {
    pthread_mutex_unlock(&product_lock);
    return 2;  /* a pool that could not start all its workers before */
  }
  /* OpenBLAS will call run_jobs and the workers run this library's code for the rest of the
   * process: keep it mapped even if the JVM unloads it with its class loader. */
  Dl_info self;
  if (dladdr((void *)(intptr_t)&run_jobs, &self) == 0 || self.dli_fname == NULL
      || dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) == NULL) {
    pthread_mutex_unlock(&product_lock);
    return 3;
  }
  ((set_callback_fn)(intptr_t)set_callback)(run_jobs);
  pthread_mutex_unlock(&product_lock);
  return 0;
}
