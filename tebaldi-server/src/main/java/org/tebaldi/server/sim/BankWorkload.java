package org.tebaldi.server.sim;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.client.TxnClient;
import org.tebaldi.core.db.Database;
import org.tebaldi.core.model.Catalog;
import org.tebaldi.core.model.Key;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.storage.Version;
import org.tebaldi.core.storage.VersionChain;
import org.tebaldi.core.txn.Inputs;
import org.tebaldi.core.txn.TxnAbortedException;
import org.tebaldi.core.proc.Procedure;
import java.util.List;
import static org.tebaldi.core.proc.Exprs.*;
import org.tebaldi.server.cluster.Cluster;
import org.tebaldi.server.ds.DataServer;

/**
 * Bank transfers plus read-only audits (issue: "bank transfers plus read-only audits"): {@code transfer} moves
 * an amount between two accounts (read, read, write, write — sometimes reading for update, sometimes
 * upgrading, which exercises deadlock handling); {@code audit} reads every account. Invariant: every committed
 * audit sees the total, and so does the final state.
 */
public final class BankWorkload implements SimWorkload {
    public static final long INITIAL = 100;
    private final int accounts;
    private final Database db;
    private final TableSchema account;
    private int audits;

    private final boolean procedures;

    /** Interactive transfers. */
    public BankWorkload(int accounts) {
        this(accounts, false);
    }

    /**
     * @param procedures if true, {@code transfer} is a stored procedure run by the TC's interpreter (two
     *                   read-modify-writes, aborting itself when the source balance is too low); else interactive
     */
    public BankWorkload(int accounts, boolean procedures) {
        this.accounts = accounts;
        this.procedures = procedures;
        Catalog c = new Catalog();
        account = c.add("account", 1, 0, false, Catalog.longCol("balance"));
        db = new Database(c);
        if (procedures) {
            db.procedure(Procedure.define("transfer", c).params("from", "to", "amount").body(b -> b
                    .read("account", "src", in("from"))
                    .abortIf(lt(field("src", "balance"), in("amount")), "insufficient funds")
                    .update("account", null, List.of(set("balance", sub(col("balance"), in("amount")))), in("from"))
                    .update("account", "dst", List.of(set("balance", add(col("balance"), in("amount")))), in("to"))
                    .output("dst_balance", field("dst", "balance"))).build());
        } else {
            db.interactive("transfer", false, List.of("account"), "from", "to", "amount");
        }
        db.interactive("audit", true, List.of("account"));
    }

    @Override
    public Database database() {
        return db;
    }

    /** Committed audits that checked the total. */
    public int audits() {
        return audits;
    }

    @Override
    public void load(Cluster cluster) {
        for (int i = 0; i < accounts; i++) {
            cluster.load(Key.of(account, i), account.row(INITIAL));
        }
    }

    @Override
    public CompletableFuture<Boolean> attempt(TxnClient client, Random rnd, long priority) {
        if (rnd.nextInt(10) < 3) {
            return Attempts.outcome(client.begin("audit", Inputs.NONE, priority)
                    .thenCompose(t -> sum(t, 0, 0).thenCompose(total -> t.commit().thenApply(ci -> {
                        if (total != INITIAL * accounts) {
                            throw new AssertionError("committed audit " + ci.txnId() + " saw total " + total
                                    + ", expected " + INITIAL * accounts);
                        }
                        audits++;
                        return true;
                    }))));
        }
        long a = rnd.nextInt(accounts);
        long b = (a + 1 + rnd.nextInt(accounts - 1)) % accounts;
        long amount = 1 + rnd.nextInt(20);
        boolean forUpdate = rnd.nextBoolean();
        if (procedures) {
            return Attempts.outcome(client.call("transfer", Inputs.of(a, b, amount), priority)
                    .exceptionally(e -> {
                        Throwable c = e.getCause() != null ? e.getCause() : e;
                        if (c instanceof TxnAbortedException x && !x.retryable()
                                && x.getMessage().contains("insufficient funds")) {
                            return null; // the procedure's own abort: a finished attempt
                        }
                        throw e instanceof RuntimeException re ? re : new java.util.concurrent.CompletionException(e);
                    }));
        }
        return Attempts.outcome(client.begin("transfer", Inputs.of(a, b, amount), priority).thenCompose(t ->
                read(t, a, forUpdate).thenCompose(ra ->
                        read(t, b, forUpdate).thenCompose(rb ->
                                t.write(account.row(ra.getLong("balance") - amount), a).thenCompose(x ->
                                        t.write(account.row(rb.getLong("balance") + amount), b)).thenCompose(x ->
                                        t.commit())))));
    }

    private static CompletableFuture<Row> read(Transaction t, long k, boolean forUpdate) {
        return forUpdate ? t.readForUpdate("account", k) : t.read("account", k);
    }

    private CompletableFuture<Long> sum(Transaction t, int i, long acc) {
        if (i == accounts) {
            return CompletableFuture.completedFuture(acc);
        }
        return t.read("account", i).thenCompose(r -> sum(t, i + 1, acc + r.getLong("balance")));
    }

    @Override
    public void checkFinal(Cluster cluster) {
        long total = 0;
        for (DataServer d : cluster.dataServers()) {
            for (int i = 0; i < accounts; i++) {
                VersionChain c = d.store().find(Key.of(account, i));
                Version v = c == null ? null : c.latestCommitted();
                if (v != null) {
                    total += v.value().getLong("balance");
                }
            }
        }
        if (total != INITIAL * accounts) {
            throw new AssertionError("final total " + total + ", expected " + INITIAL * accounts);
        }
    }
}
