package org.tebaldi.core.config;

/**
 * Bad user input (a tree, an experiment, an override): one clear message naming the file, the place and the
 * fix (docs/trees.md), e.g.
 * {@code config/trees/x.yaml:7: root.children[1].cc: unknown mechanism '2p1'. Fix: use one of 2pl, none}.
 * Commands print {@link #getMessage()} alone, never a stack trace, and write nothing; the message is one line.
 */
public class ConfigException extends RuntimeException {
    private final String file;
    private final int line;
    private final String place;
    private final String problem;
    private final String fix;

    /**
     * @param file    the file (or e.g. {@code --set}, {@code <inline>})
     * @param line    1-based line, or 0 if unknown
     * @param place   path inside the document, e.g. {@code root.children[1].cc}; may be empty
     * @param problem what is wrong
     * @param fix     how to fix it; may be null
     */
    public ConfigException(String file, int line, String place, String problem, String fix) {
        super(format(file, line, place, problem, fix), null, false, false);
        this.file = file;
        this.line = line;
        this.place = place;
        this.problem = problem;
        this.fix = fix;
    }

    private static String format(String file, int line, String place, String problem, String fix) {
        StringBuilder b = new StringBuilder(file == null ? "<input>" : file);
        if (line > 0) {
            b.append(':').append(line);
        }
        b.append(": ");
        if (place != null && !place.isEmpty()) {
            b.append(place).append(": ");
        }
        b.append(problem);
        if (fix != null && !fix.isEmpty()) {
            b.append(". Fix: ").append(fix);
        }
        return oneLine(b.toString());
    }

    /**
     * The message on one line: line breaks inside it (a quoted multi-line value from the input) are written as
     * {@code \n}, so a command prints exactly one line (found by fuzzing tree files).
     */
    private static String oneLine(String s) {
        return s.indexOf('\n') < 0 && s.indexOf('\r') < 0 && s.indexOf('\u2028') < 0 && s.indexOf('\u2029') < 0 ? s
                : s.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n").replace("\u2028", "\\n")
                        .replace("\u2029", "\\n");
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public String place() {
        return place;
    }

    public String problem() {
        return problem;
    }

    public String fix() {
        return fix;
    }
}
