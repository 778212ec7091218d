package org.tebaldi.bench.workload.bank;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.tebaldi.bench.workload.ClientSource;
import org.tebaldi.bench.workload.TxnRequest;
import org.tebaldi.core.client.Transaction;
import org.tebaldi.core.model.Row;
import org.tebaldi.core.model.TableSchema;
import org.tebaldi.core.txn.Inputs;

/** One bank client: audits with probability {@code auditRatio}, else a transfer of 1..10 between two accounts. */
final class BankClient implements ClientSource {
    static final String TRANSFER = "transfer";
    static final String AUDIT = "audit";

    private final TableSchema account;
    private final int accounts;
    private final java.util.function.DoubleSupplier auditRatio;
    private final SplittableRandom random;

    /** @param auditRatio the audit share in force now (it may shift during the run) */
    BankClient(TableSchema account, int accounts, java.util.function.DoubleSupplier auditRatio, long seed) {
        this.account = account;
        this.accounts = accounts;
        this.auditRatio = auditRatio;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public TxnRequest next() {
        if (random.nextDouble() < auditRatio.getAsDouble()) {
            return TxnRequest.interactive(AUDIT, Inputs.NONE, this::audit);
        }
        long from = random.nextInt(accounts);
        long to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
        long amount = 1 + random.nextInt(10);
        return TxnRequest.interactive(TRANSFER, Inputs.of(from, to, amount), t -> transfer(t, from, to, amount));
    }

    private CompletableFuture<?> transfer(Transaction t, long from, long to, long amount) {
        CompletableFuture<Row> a = t.read(BankWorkload.ACCOUNT, from);
        CompletableFuture<Row> b = t.read(BankWorkload.ACCOUNT, to);
        return a.thenCombine(b, (ra, rb) -> List.of(ra, rb)).thenCompose(rows -> CompletableFuture.allOf(
                t.write(account.row(rows.get(0).getLong("balance") - amount), from),
                t.write(account.row(rows.get(1).getLong("balance") + amount), to)));
    }

    private CompletableFuture<?> audit(Transaction t) {
        List<CompletableFuture<Row>> reads = new ArrayList<>(accounts);
        for (long i = 0; i < accounts; i++) {
            reads.add(t.read(BankWorkload.ACCOUNT, i));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
    }
}
