package org.tebaldi.core.codec;

import org.tebaldi.core.model.Catalog;

/**
 * What decoding needs besides the bytes: the catalog of the database the cluster runs (rows and updates name
 * their table by id and are rebuilt against the local {@link org.tebaldi.core.model.TableSchema}).
 *
 * @param catalog the tables, or null where no row travels (decoding a row then fails with a clear message)
 */
public record CodecContext(Catalog catalog) {
    /** A context without a catalog. */
    public static final CodecContext NONE = new CodecContext(null);

    /**
     * The catalog.
     *
     * @throws CodecException if this context has none
     */
    public Catalog requireCatalog() {
        if (catalog == null) {
            throw new CodecException("cannot decode a row: this endpoint knows no catalog");
        }
        return catalog;
    }
}
