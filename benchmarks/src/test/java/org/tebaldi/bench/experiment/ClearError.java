package org.tebaldi.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.tebaldi.core.config.ConfigException;

/** What every error about a bad file must look like (docs/experiments.md, "Writing an experiment"), checked by the fuzz tests. */
final class ClearError {
    private ClearError() {
    }

    /**
     * Asserts {@code e} is one clear message: it names a file, says what to fix, is one line of reasonable length,
     * carries no stack trace and no cause, and leaks no Java or Jackson class name (unless the input itself
     * holds that text, echoed as the bad value).
     */
    static void check(ConfigException e, String input) {
        String m = e.getMessage();
        String ctx = "\n--- message: " + m + "\n--- input:\n" + input;
        assertTrue(e.file() != null && !e.file().isBlank(), "names the file" + ctx);
        assertTrue(e.fix() != null && !e.fix().isBlank(), "says what to fix" + ctx);
        assertFalse(m.contains("\n") || m.contains("\r"), "one line" + ctx);
        assertTrue(m.length() < 2000, "short" + ctx);
        assertEquals(0, e.getStackTrace().length, "no stack trace" + ctx);
        assertNull(e.getCause(), "no cause to print" + ctx);
        for (String leak : new String[] {"com.fasterxml", "org.yaml", "java.lang.", "Exception:", "\tat "}) {
            assertFalse(m.contains(leak) && !input.contains(leak), "no '" + leak + "' in the message" + ctx);
        }
    }
}
