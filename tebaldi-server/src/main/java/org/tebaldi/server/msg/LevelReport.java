package org.tebaldi.server.msg;

import org.tebaldi.core.cc.CcReport;

/** A DS part's report to its TC part ({@link org.tebaldi.core.cc.DsTxn#report}), riding on a reply. */
public record LevelReport(int level, CcReport report) {
}
