package dev.kiln.runtime.cuda;

import static jcuda.nvrtc.JNvrtc.nvrtcCompileProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcCreateProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcDestroyProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcGetNumSupportedArchs;
import static jcuda.nvrtc.JNvrtc.nvrtcGetProgramLog;
import static jcuda.nvrtc.JNvrtc.nvrtcGetPTX;
import static jcuda.nvrtc.JNvrtc.nvrtcGetSupportedArchs;
import static jcuda.nvrtc.JNvrtc.nvrtcVersion;

import dev.kiln.runtime.KilnException;
import java.util.Map;
import jcuda.CudaException;
import jcuda.nvrtc.JNvrtc;
import jcuda.nvrtc.nvrtcProgram;

/**
 * Compiles a generated {@code .cu} to PTX at run time with NVRTC, for the device's own compute
 * capability, with the options the build's nvcc uses for exact math ({@code -std=c++17
 * --fmad=false}). JCuda's NVRTC binding loads {@code libnvrtc} only here, when first needed.
 */
final class Nvrtc {

  /** NVRTC cannot be loaded; the message says why. */
  static final class UnavailableException extends Exception {
    UnavailableException(String reason, Throwable cause) {
      super(reason, cause);
    }
  }

  private Nvrtc() {}

  /**
   * The PTX of a source.
   *
   * @param fileName the source's name, for NVRTC's messages
   * @param headers the included headers' texts by include name
   * @param computeCapability the device's, as {@code 10 * major + minor} ({@code 80} for 8.0)
   * @throws UnavailableException when NVRTC cannot be loaded
   * @throws KilnException when the source does not compile, with NVRTC's log
   */
  static String compile(String fileName, String source, Map<String, String> headers,
      int computeCapability) throws UnavailableException {
    try {
      JNvrtc.setExceptionsEnabled(true);
    } catch (LinkageError e) {
      throw new UnavailableException(Unavailability.describeNvrtc(e), e);
    }
    String[] options = options(pickArch(supportedArchs(), computeCapability));
    nvrtcProgram program = new nvrtcProgram();
    try {
      nvrtcCreateProgram(program, source, fileName, headers.size(),
          headers.values().toArray(new String[0]), headers.keySet().toArray(new String[0]));
      try {
        nvrtcCompileProgram(program, options.length, options);
      } catch (CudaException e) {
        throw new KilnException("NVRTC " + version() + " could not compile " + fileName + " with "
            + String.join(" ", options) + " (" + e.getMessage() + "):\n" + log(program), e);
      }
      String[] ptx = new String[1];
      nvrtcGetPTX(program, ptx);
      return ptx[0];
    } catch (CudaException e) {
      throw new KilnException("NVRTC " + version() + " failed on " + fileName + ": " + e.getMessage(), e);
    } finally {
      try {
        nvrtcDestroyProgram(program);
      } catch (CudaException ignored) {
        // The program was never created; nothing to free.
      }
    }
  }

  /** NVRTC's options for a virtual architecture such as 80. */
  static String[] options(int arch) {
    return new String[] {"--gpu-architecture=compute_" + arch, "-std=c++17", "--fmad=false"};
  }

  /**
   * The architecture to compile for: the newest that NVRTC supports and the device runs, else the
   * device's own (and NVRTC says what is wrong).
   *
   * @param supported NVRTC's architectures, such as {@code {50, 52, ..., 90}}; may be empty
   */
  static int pickArch(int[] supported, int computeCapability) {
    int best = -1;
    for (int a : supported) {
      if (a <= computeCapability && a > best) {
        best = a;
      }
    }
    return best < 0 ? computeCapability : best;
  }

  /** NVRTC's version, such as {@code "12.6"}. */
  static String version() {
    try {
      int[] major = {0};
      int[] minor = {0};
      nvrtcVersion(major, minor);
      return major[0] + "." + minor[0];
    } catch (CudaException | LinkageError e) {
      return "(version unknown)";
    }
  }

  private static int[] supportedArchs() {
    try {
      int[] n = {0};
      nvrtcGetNumSupportedArchs(n);
      int[] archs = new int[n[0]];
      nvrtcGetSupportedArchs(archs);
      return archs;
    } catch (CudaException e) {
      return new int[0];
    }
  }

  private static String log(nvrtcProgram program) {
    try {
      String[] log = new String[1];
      nvrtcGetProgramLog(program, log);
      return log[0] == null || log[0].isBlank() ? "(NVRTC gave no log)" : log[0].strip();
    } catch (CudaException e) {
      return "(NVRTC's log could not be read: " + e.getMessage() + ")";
    }
  }
}
