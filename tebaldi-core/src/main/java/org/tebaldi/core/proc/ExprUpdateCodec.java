package org.tebaldi.core.proc;

import java.util.ArrayList;
import java.util.List;
import org.tebaldi.core.codec.Codec;
import org.tebaldi.core.codec.CodecException;
import org.tebaldi.core.codec.Decoder;
import org.tebaldi.core.codec.Encoder;
import org.tebaldi.core.model.TableSchema;

/**
 * Wire form of an {@link ExprUpdate} (the read-modify-write of stored procedures): its table id and its residual
 * assignments as expression trees (one kind byte per node: literal with a tagged value, parameter, local, field,
 * column, unary/binary operator with the operator's ordinal, conditional, element, concatenation). Decoding
 * rebuilds the update with {@link ExprUpdate#of} against the local catalog.
 */
public final class ExprUpdateCodec implements Codec<ExprUpdate> {
    private static final int LIT = 0;
    private static final int IN = 1;
    private static final int LOCAL = 2;
    private static final int FIELD = 3;
    private static final int COL = 4;
    private static final int UNARY = 5;
    private static final int BINARY = 6;
    private static final int COND = 7;
    private static final int ELEM = 8;
    private static final int CONCAT = 9;
    private static final Expr.UnaryOp[] UNARY_OPS = Expr.UnaryOp.values();
    private static final Expr.BinaryOp[] BINARY_OPS = Expr.BinaryOp.values();
    /** Deepest expression accepted when decoding (guards the stack against corrupt input). */
    private static final int MAX_DEPTH = 256;

    @Override
    public void encode(ExprUpdate u, Encoder out) {
        out.writeVarInt(u.table().id());
        List<Assign> as = u.assignments();
        out.writeVarInt(as.size());
        for (Assign a : as) {
            out.writeString(a.column());
            writeExpr(out, a.value());
        }
    }

    @Override
    public ExprUpdate decode(Decoder in) {
        int t = in.readVarInt();
        TableSchema table;
        try {
            table = in.context().requireCatalog().table(t);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new CodecException("update of unknown table id " + t);
        }
        int n = in.readVarInt();
        if (n < 0 || n > in.remaining()) {
            throw new CodecException("assignment count " + n + " out of range");
        }
        List<Assign> as = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String col = in.readString();
            as.add(new Assign(col, readExpr(in, 0)));
        }
        try {
            return ExprUpdate.of(table, as);
        } catch (ProcedureException e) {
            throw new CodecException("bad update: " + e.getMessage());
        }
    }

    /** Writes one expression tree. */
    public static void writeExpr(Encoder out, Expr e) {
        if (e instanceof Expr.Lit l) {
            out.writeByte(LIT);
            out.writeValue(l.value());
        } else if (e instanceof Expr.In x) {
            out.writeByte(IN);
            out.writeString(x.param());
        } else if (e instanceof Expr.Local x) {
            out.writeByte(LOCAL);
            out.writeString(x.name());
        } else if (e instanceof Expr.Field x) {
            out.writeByte(FIELD);
            out.writeString(x.row());
            out.writeString(x.column());
        } else if (e instanceof Expr.Col x) {
            out.writeByte(COL);
            out.writeString(x.column());
        } else if (e instanceof Expr.Unary x) {
            out.writeByte(UNARY);
            out.writeByte(x.op().ordinal());
            writeExpr(out, x.operand());
        } else if (e instanceof Expr.Binary x) {
            out.writeByte(BINARY);
            out.writeByte(x.op().ordinal());
            writeExpr(out, x.left());
            writeExpr(out, x.right());
        } else if (e instanceof Expr.Cond x) {
            out.writeByte(COND);
            writeExpr(out, x.test());
            writeExpr(out, x.then());
            writeExpr(out, x.otherwise());
        } else if (e instanceof Expr.Elem x) {
            out.writeByte(ELEM);
            writeExpr(out, x.array());
            writeExpr(out, x.index());
        } else if (e instanceof Expr.Concat x) {
            out.writeByte(CONCAT);
            out.writeVarInt(x.parts().size());
            for (Expr p : x.parts()) {
                writeExpr(out, p);
            }
        } else {
            throw new CodecException("unknown expression node " + e.getClass().getName());
        }
    }

    /** Reads one expression tree. */
    public static Expr readExpr(Decoder in, int depth) {
        if (depth > MAX_DEPTH) {
            throw new CodecException("expression deeper than " + MAX_DEPTH);
        }
        int kind = in.readByte();
        switch (kind) {
            case LIT:
                return new Expr.Lit(in.readValue());
            case IN:
                return new Expr.In(in.readString());
            case LOCAL:
                return new Expr.Local(in.readString());
            case FIELD:
                return new Expr.Field(in.readString(), in.readString());
            case COL:
                return new Expr.Col(in.readString());
            case UNARY: {
                int op = in.readByte();
                if (op >= UNARY_OPS.length) {
                    throw new CodecException("unknown unary operator " + op);
                }
                return new Expr.Unary(UNARY_OPS[op], readExpr(in, depth + 1));
            }
            case BINARY: {
                int op = in.readByte();
                if (op >= BINARY_OPS.length) {
                    throw new CodecException("unknown binary operator " + op);
                }
                Expr l = readExpr(in, depth + 1);
                return new Expr.Binary(BINARY_OPS[op], l, readExpr(in, depth + 1));
            }
            case COND: {
                Expr t = readExpr(in, depth + 1);
                Expr a = readExpr(in, depth + 1);
                return new Expr.Cond(t, a, readExpr(in, depth + 1));
            }
            case ELEM: {
                Expr a = readExpr(in, depth + 1);
                return new Expr.Elem(a, readExpr(in, depth + 1));
            }
            case CONCAT: {
                int n = in.readVarInt();
                if (n < 0 || n > in.remaining()) {
                    throw new CodecException("concat of " + n + " parts out of range");
                }
                List<Expr> parts = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    parts.add(readExpr(in, depth + 1));
                }
                return new Expr.Concat(parts);
            }
            default:
                throw new CodecException("unknown expression kind " + kind);
        }
    }
}
