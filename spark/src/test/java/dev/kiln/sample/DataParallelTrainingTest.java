package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** The sample's LSTM classifier trained on Spark's local mode, two threads, against the same training on one machine. */
class DataParallelTrainingTest {
  @Test
  void lossesFollowTheSingleMachineRun() {
    int batch = Options.DEFAULTS.batch();
    int steps = 10;
    double[] single = DataParallelTraining.single(batch, steps);
    JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster("local[2]").setAppName("kiln-training-test")
        .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    try {
      sc.setLogLevel("ERROR");
      for (int parts : new int[] {2, 3}) {
        double[] split = DataParallelTraining.onSpark(sc, batch, steps, parts);
        StringBuilder table = new StringBuilder();
        double worst = 0;
        for (int s = 0; s < steps; s++) {
          double diff = Math.abs(split[s] - single[s]);
          worst = Math.max(worst, diff);
          table.append(String.format(java.util.Locale.ROOT, "%n step %d: one machine %.7f, %d parts %.7f", s, single[s], parts, split[s]));
        }
        System.out.println("[data-parallel training] " + parts + " parts, largest loss difference " + worst + table);
        assertTrue(worst <= 1e-5, "losses differ by " + worst + ":" + table);
        assertTrue(split[steps - 1] < split[0] * 0.9, "the loss did not fall:" + table);
      }
    } finally {
      sc.stop();
    }
  }
}
