package org.tebaldi.server.zk;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The ZooKeeper credentials of one cluster (docs/cluster.md, "Security"): a user and a random password for
 * ZooKeeper's {@code digest} scheme. Every Curator client of the cluster (the runner's, every node's; {@link
 * ZkConnection#open(String, int, long, ZkAuth)}) authenticates with them and creates every znode under the
 * cluster's root {@code /tebaldi/<cluster>} — the root itself, the manifest with the cluster secret, the tree,
 * membership, leader latches, terms, failover decisions, epoch decisions — with one ACL: all permissions for this
 * digest identity, none for anybody else. A client without the credentials gets {@code NoAuth} reading or listing
 * them. Znodes outside the root ({@code /tebaldi}, shared by the clusters of one ensemble) stay open. What the ACL
 * does not hide: that a znode exists and its {@code Stat} ({@code exists} is not access-checked).
 *
 * @param paths    the cluster's layout (its root is what the ACL covers)
 * @param user     the digest user name ({@value #USER})
 * @param password the password: 32 random bytes, base64
 */
public record ZkAuth(ZkPaths paths, String user, String password) {
    /** The user name of generated credentials. */
    public static final String USER = "tebaldi";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** @throws IllegalArgumentException if the user or password is empty or contains ':' or a line break */
    public ZkAuth {
        if (user == null || user.isEmpty() || password == null || password.isEmpty()
                || (user + password).matches("(?s).*[:\\r\\n].*")) {
            throw new IllegalArgumentException("ZooKeeper digest credentials need a user and a password without ':'");
        }
    }

    /** New credentials with a random password (32 bytes from {@link SecureRandom}). */
    public static ZkAuth generate(ZkPaths paths) {
        byte[] pw = new byte[32];
        RANDOM.nextBytes(pw);
        return new ZkAuth(paths, USER, Base64.getUrlEncoder().withoutPadding().encodeToString(pw));
    }

    /**
     * Credentials as {@link #line()} wrote them.
     *
     * @throws IllegalArgumentException if {@code line} is not {@code user:password}
     */
    public static ZkAuth parse(ZkPaths paths, String line) {
        String l = line.strip();
        int colon = l.indexOf(':');
        if (colon <= 0 || colon == l.length() - 1) {
            throw new IllegalArgumentException("ZooKeeper digest credentials must read user:password");
        }
        return new ZkAuth(paths, l.substring(0, colon), l.substring(colon + 1));
    }

    /** {@code user:password}: what the credentials file holds and what the client sends to authenticate. */
    public String line() {
        return user + ":" + password;
    }

    /** The ACL of the cluster's znodes: every permission for this digest identity only. */
    public List<ACL> acl() {
        try {
            // not List.of: ZooKeeper's ACL check asks contains(null), which List.of answers with an exception
            return Collections.singletonList(new ACL(ZooDefs.Perms.ALL,
                    new Id("digest", DigestAuthenticationProvider.generateDigest(line()))));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available in this JVM: " + e, e);
        }
    }

    /** Whether {@code path} is the cluster's root or under it. */
    public boolean covers(String path) {
        String root = paths.root();
        return path.equals(root) || path.startsWith(root + "/");
    }

    /** For Curator's builder: {@link #acl()} on the cluster's znodes, the open ACL elsewhere. */
    public ACLProvider aclProvider() {
        List<ACL> mine = acl();
        return new ACLProvider() {
            @Override
            public List<ACL> getDefaultAcl() {
                return ZooDefs.Ids.OPEN_ACL_UNSAFE;
            }

            @Override
            public List<ACL> getAclForPath(String path) {
                return path != null && covers(path) ? mine : ZooDefs.Ids.OPEN_ACL_UNSAFE;
            }
        };
    }

    /** What a client sends to authenticate ({@code addauth digest user:password}). */
    public byte[] authBytes() {
        return line().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Puts this ACL on every znode already under the cluster's root (left by an earlier run of the same name on an
     * external ensemble, possibly without ACLs), so nothing written from now on sits in an open znode. Called by
     * the runner that creates the cluster, before it publishes anything; nothing to do if the root does not exist.
     *
     * @throws IllegalStateException if an earlier cluster of this name protected its znodes with other credentials
     *                               (naming the fix), or ZooKeeper fails
     */
    public void claim(CuratorFramework zk) {
        try {
            if (zk.checkExists().forPath(paths.root()) != null) {
                claim(zk, paths.root(), acl());
            }
        } catch (KeeperException.NoAuthException e) {
            throw new IllegalStateException(paths.root() + " in ZooKeeper belongs to an earlier cluster of this name "
                    + "whose znodes carry another digest ACL: delete it with that cluster's credentials (its <run "
                    + "dir>/cluster/zk-digest, e.g. zkCli.sh addauth digest USER:PASSWORD; deleteall " + paths.root()
                    + "), or give this experiment another name", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot set the ACL of " + paths.root() + " in ZooKeeper: " + e, e);
        }
    }

    private static void claim(CuratorFramework zk, String path, List<ACL> acl) throws Exception {
        try {
            zk.setACL().withACL(acl).forPath(path);
            for (String child : zk.getChildren().forPath(path)) {
                claim(zk, path + "/" + child, acl);
            }
        } catch (KeeperException.NoNodeException gone) {
            // an ephemeral znode whose session just ended: nothing to protect
        }
    }

    @Override
    public String toString() {
        return "ZkAuth[" + user + ", password hidden, " + paths.root() + "]";
    }
}
