package org.tebaldi.core.cc;

/**
 * A fact a DS part sends to its own TC part about one transaction ({@link DsTxn#report}), e.g. SSI's
 * anti-dependency edges between batches. Each mechanism defines its report records and registers their codecs
 * (they cross the network in process mode); the TC part receives them, typed, in {@link TcPart#onReport}.
 */
public interface CcReport {
}
