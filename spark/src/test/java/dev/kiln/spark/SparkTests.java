package dev.kiln.spark;

import java.util.SplittableRandom;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** What this module's tests share: a Spark context on local mode, and random inputs. */
final class SparkTests {
  private SparkTests() {}

  /** A local-mode context with two worker threads, no UI, and only errors logged. */
  static JavaSparkContext context(String name) {
    JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName(name)
        .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    sc.setLogLevel("ERROR");
    return sc;
  }

  /** {@code n} floats in [-2, 2) from {@code seed}. */
  static float[] data(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] x = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = (float) (r.nextDouble() * 4 - 2);
    }
    return x;
  }
}
