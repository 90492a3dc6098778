package dev.kiln.sample;

/** One way to train the sample's LSTM: the float[] launchers on the CPU ({@link Training}), or the FloatTensor launchers on Kiln's device ({@link TensorTraining}). */
interface Trainer {
  /** Mean cross-entropy of the current parameters; keeps what the backward pass needs. */
  float forward();

  /** The gradient of the mean loss for every parameter, after {@link #forward}. */
  void backward();

  /** One gradient-descent update of every parameter. */
  void update();

  /** Waits until the work launched so far has finished (a GPU's launches are asynchronous), for timing. */
  default void finish() {}
}
