package org.tebaldi.server.node;

import java.util.Locale;

/**
 * How a coordinator releases a decided transaction (experiment YAML {@code cluster.commit}).
 */
public enum CommitProtocol {
    /** Two-phase commit per transaction: the outcome goes to the client as soon as it is decided (the default). */
    TWO_PC("2pc"),
    /**
     * COCO's epoch-based commit (Lu et al., VLDB 2021, §3): decided transactions stay prepared until the epoch
     * coordinator commits their whole epoch; a failure during an epoch aborts every transaction of it.
     */
    EPOCH("epoch");

    private final String yaml;

    CommitProtocol(String yaml) {
        this.yaml = yaml;
    }

    /** The name used in the experiment YAML ({@code 2pc}, {@code epoch}). */
    public String yaml() {
        return yaml;
    }

    /**
     * The protocol named {@code name} as in the YAML.
     *
     * @throws IllegalArgumentException naming the accepted values if it is neither
     */
    public static CommitProtocol parse(String name) {
        for (CommitProtocol p : values()) {
            if (p.yaml.equals(name == null ? null : name.toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown commit protocol '" + name + "' (use 2pc or epoch)");
    }
}
