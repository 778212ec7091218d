package org.tebaldi.core.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * All codecs of the class path, by class and by wire type id (docs/architecture.md, "Runtime"). Built from {@link CodecProvider}s;
 * each registered codec gets the id {@code fnv1a32(namespace + ":" + name)}. Also encodes the built-in value types
 * of {@link Encoder#writeValue}: one tag byte, then the value; a registered class is tag {@value #TAG_REGISTERED}
 * followed by its 4-byte id and its codec's bytes. Immutable and thread-safe once built.
 */
public final class CodecRegistry {
    static final int TAG_NULL = 0;
    static final int TAG_LONG = 1;
    static final int TAG_INT = 2;
    static final int TAG_DOUBLE = 3;
    static final int TAG_STRING = 4;
    static final int TAG_BYTES = 5;
    static final int TAG_TRUE = 6;
    static final int TAG_FALSE = 7;
    static final int TAG_LONGS = 8;
    static final int TAG_OBJECTS = 9;
    static final int TAG_LIST = 10;
    static final int TAG_MAP = 11;
    static final int TAG_REGISTERED = 12;

    private static volatile CodecRegistry classPath;

    private record Entry(int id, String qualifiedName, Class<?> type, Codec<Object> codec) {
    }

    private final Map<Class<?>, Entry> byClass = new HashMap<>();
    private final Map<Integer, Entry> byId = new HashMap<>();
    private final long fingerprint;

    private CodecRegistry(List<CodecProvider> providers) {
        Map<String, CodecProvider> namespaces = new TreeMap<>();
        for (CodecProvider p : providers) {
            CodecProvider old = namespaces.put(p.namespace(), p);
            if (old != null) {
                throw new IllegalStateException("two codec providers use namespace '" + p.namespace() + "': "
                        + old.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        for (CodecProvider p : namespaces.values()) {
            p.register(new Registrar(p.namespace()));
        }
        List<String> names = new ArrayList<>();
        byId.values().forEach(e -> names.add(e.qualifiedName));
        Collections.sort(names);
        long h = 0xcbf29ce484222325L;
        for (String n : names) {
            for (char c : n.toCharArray()) {
                h = (h ^ c) * 0x100000001b3L;
            }
            h = (h ^ ';') * 0x100000001b3L;
        }
        fingerprint = h;
    }

    /**
     * The registry of every {@link CodecProvider} on the class path (cached).
     *
     * @throws IllegalStateException if two providers share a namespace or two codecs collide
     */
    public static CodecRegistry classPath() {
        CodecRegistry r = classPath;
        if (r == null) {
            List<CodecProvider> ps = new ArrayList<>();
            ServiceLoader.load(CodecProvider.class).forEach(ps::add);
            classPath = r = new CodecRegistry(ps);
        }
        return r;
    }

    /** A registry of exactly these providers (tests, tools). */
    public static CodecRegistry of(List<CodecProvider> providers) {
        return new CodecRegistry(providers);
    }

    /** A hash of every registered {@code namespace:name}; two endpoints can talk only if theirs are equal. */
    public long fingerprint() {
        return fingerprint;
    }

    /** Registered {@code namespace:name}s by wire id (for diagnostics). */
    public Map<Integer, String> names() {
        Map<Integer, String> m = new LinkedHashMap<>();
        byId.forEach((id, e) -> m.put(id, e.qualifiedName));
        return m;
    }

    /** Whether values of exactly this class can be written. */
    public boolean supports(Class<?> type) {
        return byClass.containsKey(type);
    }

    /** The 32-bit FNV-1a hash used as wire type id of {@code namespace:name}. */
    public static int typeId(String namespace, String name) {
        int h = 0x811c9dc5;
        String s = namespace + ":" + name;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x01000193;
        }
        return h;
    }

    void writeValue(Encoder out, Object v) {
        if (v == null) {
            out.writeByte(TAG_NULL);
        } else if (v instanceof Long l) {
            out.writeByte(TAG_LONG);
            out.writeVarLong(l);
        } else if (v instanceof Integer i) {
            out.writeByte(TAG_INT);
            out.writeVarLong(i);
        } else if (v instanceof Double d) {
            out.writeByte(TAG_DOUBLE);
            out.writeDouble(d);
        } else if (v instanceof String s) {
            out.writeByte(TAG_STRING);
            out.writeString(s);
        } else if (v instanceof byte[] b) {
            out.writeByte(TAG_BYTES);
            out.writeBytes(b);
        } else if (v instanceof Boolean b) {
            out.writeByte(b ? TAG_TRUE : TAG_FALSE);
        } else if (v instanceof long[] a) {
            out.writeByte(TAG_LONGS);
            out.writeLongs(a);
        } else if (v instanceof Object[] a && a.getClass() == Object[].class) {
            out.writeByte(TAG_OBJECTS);
            out.writeVarInt(a.length);
            for (Object x : a) {
                writeValue(out, x);
            }
        } else if (v instanceof List<?> l) {
            out.writeByte(TAG_LIST);
            out.writeVarInt(l.size());
            for (Object x : l) {
                writeValue(out, x);
            }
        } else if (v instanceof Map<?, ?> m) {
            out.writeByte(TAG_MAP);
            out.writeVarInt(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                writeValue(out, e.getKey());
                writeValue(out, e.getValue());
            }
        } else {
            Entry e = byClass.get(v.getClass());
            if (e == null) {
                throw new CodecException("no codec for " + v.getClass().getName() + " (values crossing the network "
                        + "must be built-in types or registered by a CodecProvider; a lambda RowUpdate works only in "
                        + "embedded mode — use a stored-procedure update)");
            }
            out.writeByte(TAG_REGISTERED);
            out.writeInt(e.id);
            e.codec.encode(v, out);
        }
    }

    Object readValue(Decoder in) {
        int tag = in.readByte();
        switch (tag) {
            case TAG_NULL:
                return null;
            case TAG_LONG:
                return in.readVarLong();
            case TAG_INT:
                return (int) in.readVarLong();
            case TAG_DOUBLE:
                return in.readDouble();
            case TAG_STRING:
                return in.readString();
            case TAG_BYTES:
                return in.readBytes();
            case TAG_TRUE:
                return Boolean.TRUE;
            case TAG_FALSE:
                return Boolean.FALSE;
            case TAG_LONGS:
                return in.readLongs();
            case TAG_OBJECTS: {
                Object[] a = new Object[count(in)];
                for (int i = 0; i < a.length; i++) {
                    a[i] = readValue(in);
                }
                return a;
            }
            case TAG_LIST: {
                int n = count(in);
                List<Object> l = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    l.add(readValue(in));
                }
                return Collections.unmodifiableList(l);
            }
            case TAG_MAP: {
                int n = count(in);
                Map<Object, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    Object k = readValue(in);
                    m.put(k, readValue(in));
                }
                return Collections.unmodifiableMap(m);
            }
            case TAG_REGISTERED: {
                int id = in.readInt();
                Entry e = byId.get(id);
                if (e == null) {
                    throw new CodecException("unknown type id " + Integer.toHexString(id) + " (the sender has a "
                            + "codec this endpoint lacks: same jar on every node?)");
                }
                return e.codec.decode(in);
            }
            default:
                throw new CodecException("unknown value tag " + tag);
        }
    }

    private static int count(Decoder in) {
        int n = in.readVarInt();
        if (n < 0 || n > in.remaining()) {
            throw new CodecException("element count " + n + " out of range (" + in.remaining() + " bytes left)");
        }
        return n;
    }

    private final class Registrar implements CodecRegistrar {
        private final String namespace;

        Registrar(String namespace) {
            this.namespace = namespace;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> void add(String name, Class<T> type, Codec<T> codec) {
            String qn = namespace + ":" + name;
            int id = typeId(namespace, name);
            Entry prev = byId.get(id);
            if (prev != null) {
                throw new IllegalStateException("codec " + qn + " collides with " + prev.qualifiedName
                        + " (same type id " + Integer.toHexString(id) + "); rename one");
            }
            Entry byType = byClass.get(type);
            if (byType != null) {
                throw new IllegalStateException(type.getName() + " has two codecs: " + byType.qualifiedName + " and "
                        + qn);
            }
            Entry e = new Entry(id, qn, type, (Codec<Object>) codec);
            byId.put(id, e);
            byClass.put(type, e);
        }
    }
}
