package org.tebaldi.server.net;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes the files of a cluster's credentials (docs/cluster.md, "Security"): private keys and passwords readable by
 * their owner only (mode 0600, set when the file is created, so no other user can open it in between), in
 * directories of mode 0700. On a file system without POSIX permissions the files are written without them.
 */
public final class PrivateFiles {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private PrivateFiles() {
    }

    /**
     * Creates {@code dir} (and its parents) if needed and makes it owner-only (0700).
     *
     * @throws IllegalStateException naming the directory if it cannot be created
     */
    public static void directory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (POSIX) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the directory " + dir + ": " + e, e);
        }
    }

    /**
     * Writes {@code bytes} to a new file {@code f} of mode 0600, replacing any file there.
     *
     * @throws IllegalStateException naming the file if it cannot be written
     */
    public static void secret(Path f, byte[] bytes) {
        write(f, bytes, "rw-------");
    }

    /**
     * Writes {@code bytes} to a new file {@code f} of mode 0644 (a certificate: public), replacing any file there.
     *
     * @throws IllegalStateException naming the file if it cannot be written
     */
    public static void open(Path f, byte[] bytes) {
        write(f, bytes, "rw-r--r--");
    }

    private static void write(Path f, byte[] bytes, String mode) {
        try {
            Files.deleteIfExists(f);
            if (POSIX) {
                Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
                // the umask may have cleared bits of the mode asked at creation, never added any
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
            }
            Files.write(f, bytes, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + f + ": " + e, e);
        }
    }

    /** Whether {@code f} can be read by users other than its owner (false where permissions are not POSIX). */
    static boolean readableByOthers(Path f) {
        if (!POSIX) {
            return false;
        }
        try {
            String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
            return mode.charAt(3) == 'r' || mode.charAt(6) == 'r';
        } catch (IOException e) {
            return false;
        }
    }
}
