package dev.kiln.sample;

/** The two ways the sample runs each operator: its source as plain Java, and Kiln's kernel. */
enum Impl {
  /** The {@code @Operator} methods themselves, called directly: the reference. */
  PLAIN {
    @Override
    void sigmoid(float[] x, float[] y) {
      for (int i = 0; i < x.length; i++) {
        y[i] = LstmOps.sigmoid(x[i]);
      }
    }

    @Override
    void affine(int b, int k, int n, float[] x, float[] w, float[] bias, float[] y) {
      LstmOps.affine(b, k, n, x, w, bias, y);
    }

    @Override
    void lstmCell(int b, int h, float[] gates, float[] c, float forgetBias, float[] cNext, float[] hNext) {
      LstmOps.lstmCell(b, h, gates, c, forgetBias, cNext, hNext);
    }

    @Override
    void softmax(int b, int n, float[] x, float[] y) {
      LstmOps.softmax(b, n, x, y);
    }

    @Override
    void concatRows(int b, int i, int h, float[] x, float[] hidden, float[] xh) {
      LstmOps.concatRows(b, i, h, x, hidden, xh);
    }
  },

  /** The kernels Kiln's processor generated from the same source, in {@code LstmOpsKernels}. */
  KERNELS {
    @Override
    void sigmoid(float[] x, float[] y) {
      LstmOpsKernels.sigmoid(x, y);
    }

    @Override
    void affine(int b, int k, int n, float[] x, float[] w, float[] bias, float[] y) {
      LstmOpsKernels.affine(b, k, n, x, w, bias, y);
    }

    @Override
    void lstmCell(int b, int h, float[] gates, float[] c, float forgetBias, float[] cNext, float[] hNext) {
      LstmOpsKernels.lstmCell(b, h, gates, c, forgetBias, cNext, hNext);
    }

    @Override
    void softmax(int b, int n, float[] x, float[] y) {
      LstmOpsKernels.softmax(b, n, x, y);
    }

    @Override
    void concatRows(int b, int i, int h, float[] x, float[] hidden, float[] xh) {
      LstmOpsKernels.concatRows(b, i, h, x, hidden, xh);
    }
  };

  /** {@code y[i] = sigmoid(x[i])} over the whole array. */
  abstract void sigmoid(float[] x, float[] y);

  abstract void affine(int b, int k, int n, float[] x, float[] w, float[] bias, float[] y);

  abstract void lstmCell(int b, int h, float[] gates, float[] c, float forgetBias, float[] cNext, float[] hNext);

  abstract void softmax(int b, int n, float[] x, float[] y);

  abstract void concatRows(int b, int i, int h, float[] x, float[] hidden, float[] xh);
}
