package org.tebaldi.cc.rp;

/**
 * How far a transaction got through the pipeline of one RP node: the step it entered and the last step whose
 * locks it released ("finished"); {@link #DONE} for both once it committed or aborted.
 */
record Progress(int entered, int released) {
    static final int DONE = Integer.MAX_VALUE;
    static final Progress FINISHED = new Progress(DONE, DONE);

    /** Whether this progress meets a wait for (entered ≥ {@code entered}, released ≥ {@code released}). */
    boolean reaches(int entered, int released) {
        return this.entered >= entered && this.released >= released;
    }
}
