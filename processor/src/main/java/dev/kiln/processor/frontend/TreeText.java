package dev.kiln.processor.frontend;

import com.sun.source.tree.Tree;

/** Plain-language names of statement and expression kinds, for diagnostics. */
final class TreeText {
  private TreeText() {}

  static String describe(Tree t) {
    switch (t.getKind()) {
      case IF: return "an if statement";
      case FOR_LOOP: return "a for loop";
      case BLOCK: return "a block";
      case WHILE_LOOP: return "a while loop";
      case DO_WHILE_LOOP: return "a do-while loop";
      case ENHANCED_FOR_LOOP: return "a for-each loop";
      case SWITCH: return "a switch statement";
      case SWITCH_EXPRESSION: return "a switch expression";
      case TRY: return "a try statement";
      case THROW: return "a throw statement";
      case BREAK: return "break";
      case CONTINUE: return "continue";
      case LABELED_STATEMENT: return "a labeled statement";
      case SYNCHRONIZED: return "a synchronized block";
      case ASSERT: return "an assert statement";
      case RETURN: return "return";
      case CLASS: case INTERFACE: case ENUM: case RECORD: return "a local class";
      case LAMBDA_EXPRESSION: return "a lambda";
      case MEMBER_REFERENCE: return "a method reference";
      case INSTANCE_OF: return "instanceof";
      case NEW_ARRAY: return "array creation";
      case NEW_CLASS: return "object creation";
      case METHOD_INVOCATION: return "a call whose result is not used";
      case ASSIGNMENT: return "an assignment inside an expression";
      case EXPRESSION_STATEMENT: return "this expression statement";
      default: return "'" + abbreviate(t.toString()) + "'";
    }
  }

  static String abbreviate(String s) {
    String one = s.replaceAll("\\s+", " ").trim();
    return one.length() > 60 ? one.substring(0, 57) + "..." : one;
  }
}
