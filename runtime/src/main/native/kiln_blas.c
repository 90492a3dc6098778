/*
 * Kiln's JNI shim for dev.kiln.runtime.cpu.HeapArrayGemm: OpenBLAS's cblas_sgemm and cblas_dgemm
 * called on Java arrays in place, inside JNI critical regions, so that a product neither copies
 * its operands into off-heap memory nor its result back (on the 2-core machine that staging cost
 * 15-30% of a product's time).
 *
 * The functions take the address of the cblas routine, found by lookup() in the OpenBLAS library
 * that JavaCPP loaded already, so this library links against nothing but libc (and libdl). Java
 * has checked every size, offset and leading dimension against the arrays' lengths before calling
 * (GemmChecks).
 *
 * Inside a critical region the thread calls no JNI function and waits for no Java thread: it
 * only runs the product, single-threaded or on OpenBLAS's own pthreads.
 *
 * Status: 0 the product ran; 1 the JVM handed a copy of an array instead of the array (HotSpot
 * does not, except under -Xcheck:jni), so nothing was written and Java must not use this path;
 * 2 a region could not be entered (an OutOfMemoryError is pending). Nothing is written unless 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <stdint.h>

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
 * OpenBLAS privately, so its symbols are not in the global scope); 0 when either is not found.
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
