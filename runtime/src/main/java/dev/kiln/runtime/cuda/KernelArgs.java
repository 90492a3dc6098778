package dev.kiln.runtime.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import jcuda.NativePointerObject;
import jcuda.Pointer;

/**
 * Marshals a launch's arguments into the pointer-to-pointers list that {@code cuLaunchKernel} takes.
 * Scalars become their bytes in the machine's order; {@link DeviceArray}s become pointers to their
 * device pointers. When the kernel's PTX signature is known, the argument count and each argument's
 * size are checked against it first, so a wrong argument fails here with a message instead of
 * making the kernel read garbage.
 */
final class KernelArgs {

  /** The argument types a launch takes, with their sizes and C++ types. */
  enum Kind {
    INT(4, "int"),
    LONG(8, "long long"),
    FLOAT(4, "float"),
    DOUBLE(8, "double"),
    BOOLEAN(1, "bool"),
    ARRAY(8, "device pointer");

    final int bytes;
    final String cType;

    Kind(int bytes, String cType) {
      this.bytes = bytes;
      this.cType = cType;
    }
  }

  private KernelArgs() {}

  /**
   * The kind of one argument.
   *
   * @throws IllegalArgumentException naming the kernel and the argument when it is null or of a type
   *     that kernels do not take
   */
  static Kind kindOf(String kernel, int index, Object arg) {
    if (arg instanceof Integer) {
      return Kind.INT;
    }
    if (arg instanceof Long) {
      return Kind.LONG;
    }
    if (arg instanceof Float) {
      return Kind.FLOAT;
    }
    if (arg instanceof Double) {
      return Kind.DOUBLE;
    }
    if (arg instanceof Boolean) {
      return Kind.BOOLEAN;
    }
    if (arg instanceof DeviceArray) {
      return Kind.ARRAY;
    }
    String prefix = "kernel " + kernel + ": argument " + index;
    if (arg == null) {
      throw new IllegalArgumentException(prefix + " is null");
    }
    String hint = arg instanceof float[] || arg instanceof double[] || arg instanceof int[]
        ? "; upload host arrays to device arrays (CudaDevice.upload) first"
        : "";
    throw new IllegalArgumentException(prefix + " is a " + arg.getClass().getSimpleName()
        + ", but kernels take Integer, Long, Float, Double, Boolean and DeviceArray arguments"
        + hint);
  }

  /** A scalar argument's bytes, in the machine's byte order. */
  static byte[] encode(Object scalar) {
    ByteBuffer b;
    if (scalar instanceof Integer i) {
      b = buffer(4).putInt(i);
    } else if (scalar instanceof Long l) {
      b = buffer(8).putLong(l);
    } else if (scalar instanceof Float f) {
      b = buffer(4).putFloat(f);
    } else if (scalar instanceof Double d) {
      b = buffer(8).putDouble(d);
    } else if (scalar instanceof Boolean z) {
      b = buffer(1).put((byte) (z ? 1 : 0));
    } else {
      throw new IllegalArgumentException("not a scalar argument: " + scalar);
    }
    return b.array();
  }

  /**
   * Checks the arguments against the kernel's parameters.
   *
   * @param params the kernel's PTX parameters; null when unknown, which skips the check
   * @return each argument's kind
   */
  static Kind[] check(String kernel, List<PtxInfo.Param> params, Object[] args) {
    if (args == null) {
      throw new IllegalArgumentException("kernel " + kernel + ": the argument array is null");
    }
    Kind[] kinds = new Kind[args.length];
    for (int i = 0; i < args.length; i++) {
      kinds[i] = kindOf(kernel, i, args[i]);
    }
    if (params != null) {
      if (params.size() != args.length) {
        throw new IllegalArgumentException("kernel " + kernel + " takes " + params.size()
            + " parameters " + describe(params) + " but was given " + args.length + " arguments "
            + describe(kinds));
      }
      for (int i = 0; i < args.length; i++) {
        if (params.get(i).bytes() != kinds[i].bytes) {
          throw new IllegalArgumentException("kernel " + kernel + ": argument " + i + " is a "
              + kinds[i].cType + " (" + kinds[i].bytes + (kinds[i].bytes == 1 ? " byte" : " bytes")
              + ") but parameter " + i + " is " + params.get(i).type() + " ("
              + params.get(i).bytes() + (params.get(i).bytes() == 1 ? " byte" : " bytes")
              + "); the kernel's parameters are " + describe(params));
        }
      }
    }
    return kinds;
  }

  /**
   * The kernel parameter list for {@code cuLaunchKernel}.
   *
   * @throws IllegalStateException when a device array argument is closed
   */
  static Pointer marshal(String kernel, List<PtxInfo.Param> params, Object[] args) {
    Kind[] kinds = check(kernel, params, args);
    if (args.length == 0) {
      return new Pointer();
    }
    NativePointerObject[] pointers = new NativePointerObject[args.length];
    for (int i = 0; i < args.length; i++) {
      pointers[i] = kinds[i] == Kind.ARRAY
          ? ((DeviceArray) args[i]).argument()
          : Pointer.to(encode(args[i]));
    }
    return Pointer.to(pointers);
  }

  private static ByteBuffer buffer(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.nativeOrder());
  }

  private static String describe(List<PtxInfo.Param> params) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < params.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(params.get(i).type());
    }
    return b.append(')').toString();
  }

  private static String describe(Kind[] kinds) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < kinds.length; i++) {
      b.append(i == 0 ? "" : ", ").append(kinds[i].cType);
    }
    return b.append(')').toString();
  }
}
