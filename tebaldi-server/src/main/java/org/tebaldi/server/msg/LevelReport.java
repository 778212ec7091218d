package org.tebaldi.server.msg;

/** A DS part's report to its TC part ({@code org.tebaldi.core.cc.DsTxn#report}), riding on a reply. */
public record LevelReport(int level, Object info) {
}
