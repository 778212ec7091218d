package org.tebaldi.autoconf.configurator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.tebaldi.core.cc.Mechanism;
import org.tebaldi.core.config.ConfigException;
import org.tebaldi.core.tree.CcTree;
import org.tebaldi.core.tree.TreeContext;
import org.tebaldi.core.tree.TreeValidator;

/**
 * The proposal stage of one iteration (dissertation §5.4): the strategies' candidates for a conflict edge
 * ({@link Strategies}), the filters ({@link Filters}), CC-specific preprocessing ({@link Preprocessing}) and the
 * full tree validator; candidates come out deduplicated by canonical form, ready to run.
 */
final class Proposals {
    private final TreeContext ctx;
    private final Function<String, Mechanism> mechanisms;
    private final List<String> names;

    /**
     * @param names mechanisms the strategies try for new nodes
     * @throws IllegalArgumentException (when proposing) for a mechanism name the context does not know
     */
    Proposals(TreeContext ctx, List<String> names) {
        this.ctx = ctx;
        this.names = names;
        this.mechanisms = name -> {
            Mechanism m = ctx.mechanisms().get(name);
            if (m == null) {
                throw new IllegalArgumentException("unknown mechanism '" + name + "'");
            }
            return m;
        };
    }

    /**
     * Proposals for edge {@code b} of {@code current} that pass the filters, preprocess and validate (as validated
     * trees, ready to run); rejected ones go to {@code trials} with the reason.
     */
    List<Candidate> of(CcTree current, Bottleneck.Edge b, List<Iteration.Trial> trials) {
        Filters filters = new Filters(ctx);
        Preprocessing pre = new Preprocessing(ctx.database(), mechanisms);
        List<Candidate> out = new ArrayList<>();
        for (Candidate c : Strategies.propose(current, b.a(), b.b(), names)) {
            String why = filters.reject(c.tree());
            String[] reason = {null};
            List<Candidate> variants = why == null ? pre.apply(c, reason) : List.of();
            if (why == null && variants.isEmpty()) {
                why = "preprocessing: " + reason[0];
            }
            if (why != null) {
                trials.add(Iteration.Trial.rejected(b.name(), c, why));
                continue;
            }
            for (Candidate v : variants) {
                try {
                    CcTree t = TreeValidator.validate(v.tree().activeSpec(), "<candidate>", ctx).tree();
                    if (out.stream().noneMatch(o -> o.tree().canonical().equals(t.canonical()))) {
                        out.add(new Candidate(t, v.strategy()));
                    }
                } catch (ConfigException e) {
                    trials.add(Iteration.Trial.rejected(b.name(), v, "invalid: " + e.getMessage()));
                }
            }
        }
        return out;
    }
}
