package dev.kiln.runtime.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kernel argument marshalling, without a GPU. */
class KernelArgsTest {
  private static final String K = "p.Foo.k";
  private final FakeMemory memory = new FakeMemory();

  private static PtxInfo.Param p(String type, int bytes) {
    return new PtxInfo.Param(type, bytes);
  }

  @Test
  void eachSupportedTypeHasItsKindAndSize() {
    DeviceFloatArray array = new DeviceFloatArray(memory, 4);
    Object[] args = {7, 8L, 1.5f, 2.5, true, array};
    KernelArgs.Kind[] kinds = KernelArgs.check(K, null, args);
    assertArrayEquals(new KernelArgs.Kind[] {KernelArgs.Kind.INT, KernelArgs.Kind.LONG,
        KernelArgs.Kind.FLOAT, KernelArgs.Kind.DOUBLE, KernelArgs.Kind.BOOLEAN,
        KernelArgs.Kind.ARRAY}, kinds);
    assertEquals(4, KernelArgs.Kind.INT.bytes);
    assertEquals(8, KernelArgs.Kind.LONG.bytes);
    assertEquals(4, KernelArgs.Kind.FLOAT.bytes);
    assertEquals(8, KernelArgs.Kind.DOUBLE.bytes);
    assertEquals(1, KernelArgs.Kind.BOOLEAN.bytes);
    assertEquals(8, KernelArgs.Kind.ARRAY.bytes);
    array.close();
  }

  @Test
  void scalarsAreEncodedInTheMachinesByteOrder() {
    ByteOrder o = ByteOrder.nativeOrder();
    assertArrayEquals(ByteBuffer.allocate(4).order(o).putInt(-123456).array(), KernelArgs.encode(-123456));
    assertArrayEquals(ByteBuffer.allocate(8).order(o).putLong(1L << 40).array(), KernelArgs.encode(1L << 40));
    assertArrayEquals(ByteBuffer.allocate(4).order(o).putFloat(0.1f).array(), KernelArgs.encode(0.1f));
    assertArrayEquals(ByteBuffer.allocate(8).order(o).putDouble(-2.75).array(), KernelArgs.encode(-2.75));
    assertArrayEquals(new byte[] {1}, KernelArgs.encode(true));
    assertArrayEquals(new byte[] {0}, KernelArgs.encode(false));
    assertThrows(IllegalArgumentException.class, () -> KernelArgs.encode("x"));
  }

  @Test
  void marshalBuildsOnePointerPerArgument() {
    try (DeviceIntArray array = new DeviceIntArray(memory, 2)) {
      assertNotNull(KernelArgs.marshal(K, List.of(p(".u32", 4), p(".u64", 8), p(".u8", 1)),
          new Object[] {3, array, false}));
      assertNotNull(KernelArgs.marshal(K, List.of(), new Object[0]));
    }
  }

  @Test
  void nullAndUnsupportedArgumentsNameTheKernelAndIndex() {
    IllegalArgumentException n = assertThrows(IllegalArgumentException.class,
        () -> KernelArgs.check(K, null, new Object[] {1, null}));
    assertEquals("kernel p.Foo.k: argument 1 is null", n.getMessage());
    IllegalArgumentException host = assertThrows(IllegalArgumentException.class,
        () -> KernelArgs.check(K, null, new Object[] {new float[3]}));
    assertTrue(host.getMessage().startsWith("kernel p.Foo.k: argument 0 is a float[]"), host.getMessage());
    assertTrue(host.getMessage().contains("upload"), host.getMessage());
    IllegalArgumentException s = assertThrows(IllegalArgumentException.class,
        () -> KernelArgs.check(K, null, new Object[] {(short) 1}));
    assertTrue(s.getMessage().contains("Short"), s.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KernelArgs.check(K, null, null));
  }

  @Test
  void aClosedArrayCannotBeAnArgument() {
    DeviceFloatArray array = new DeviceFloatArray(memory, 2);
    array.close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KernelArgs.marshal(K, null, new Object[] {array}));
    assertTrue(e.getMessage().contains("is closed"), e.getMessage());
  }

  @Test
  void argumentsAreCheckedAgainstThePtxSignature() {
    List<PtxInfo.Param> sig = List.of(p(".u64", 8), p(".f32", 4), p(".u64", 8));
    try (DeviceFloatArray x = new DeviceFloatArray(memory, 1)) {
      KernelArgs.check(K, sig, new Object[] {10L, 2f, x});
      IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
          () -> KernelArgs.check(K, sig, new Object[] {10L, 2f}));
      assertEquals("kernel p.Foo.k takes 3 parameters (.u64, .f32, .u64) but was given 2 arguments"
          + " (long long, float)", count.getMessage());
      IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
          () -> KernelArgs.check(K, sig, new Object[] {10, 2f, x}));
      assertTrue(size.getMessage().startsWith(
          "kernel p.Foo.k: argument 0 is a int (4 bytes) but parameter 0 is .u64 (8 bytes)"),
          size.getMessage());
      assertThrows(IllegalArgumentException.class,
          () -> KernelArgs.check(K, sig, new Object[] {10L, 2.0, x}));
      assertThrows(IllegalArgumentException.class,
          () -> KernelArgs.check(K, List.of(p(".u32", 4)), new Object[] {true}));
    }
  }
}
