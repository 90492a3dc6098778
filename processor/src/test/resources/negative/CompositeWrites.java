package negative;

import dev.kiln.*;

public final class CompositeWrites {
  @Operator
  public static void copy(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] out) {
    for (@Parallel int i = 0; i < N; i++) {
      out[i] = x[i];
    }
  }

  @Operator
  public static void writesInput(@Dim int N, @Shape("N") float[] x, @Shape("N") float[] z, @Out @Shape("N") float[] y) {
    copy(N, x, z); // error: KILN040 the call to 'copy' writes 'z', an input of 'writesInput'
    copy(N, x, y);
  }

  @Operator
  public static void rewrites(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y) {
    float[] t = new float[N];
    copy(N, x, t);
    copy(N, t, y);
    copy(N, x, t); // error: KILN042 the call to 'copy' writes 't' after 'copy' read it
  }

  @Operator
  public static void neverWritten(@Dim int N, @Shape("N") float[] x, @Out @Shape("N") float[] y, @Out @Shape("N") float[] z) { // error: KILN010 @Out parameter 'z' is never written by 'neverWritten'
    copy(N, x, y);
  }
}
