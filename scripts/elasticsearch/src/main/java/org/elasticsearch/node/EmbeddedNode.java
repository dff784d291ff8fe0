package org.elasticsearch.node;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.MockPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;
import org.elasticsearch.transport.netty4.Netty4Plugin;

/**
 * A single Elasticsearch 8 node in one JVM, for development and CI: HTTP on
 * 127.0.0.1 (or $ELASTICSEARCH_HTTP_HOST, 0.0.0.0 in a container), no
 * security, data under the given home directory.
 *
 * <p>It is the server jar from Maven Central with its HTTP module
 * (transport-netty4) loaded from the classpath. The class lives in
 * org.elasticsearch.node because node construction with classpath plugins is
 * package-private there; MockPluginsService from the test framework loads the
 * plugin classes.
 *
 * <pre>
 * java -Xms1g -Xmx1g -cp CLASSPATH org.elasticsearch.node.EmbeddedNode HOME PORT
 * </pre>
 *
 * <p>Alone it is a single-node cluster. With $ELASTICSEARCH_SEED_HOSTS (the
 * transport addresses of the other nodes, comma-separated) it joins a
 * cluster of local nodes instead: $ELASTICSEARCH_NODE_NAME names it,
 * $ELASTICSEARCH_TRANSPORT_PORT is its transport port and
 * $ELASTICSEARCH_INITIAL_MASTERS the node names that bootstrap the cluster.
 * Transport stays on loopback, so the nodes stay in development mode.
 */
public final class EmbeddedNode extends Node {

    private EmbeddedNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
        super(NodeConstruction.prepareConstruction(env, null, new NodeServiceProvider() {
            @Override
            PluginsService newPluginService(Environment environment, PluginsLoader loader) {
                return new MockPluginsService(environment.settings(), environment, plugins);
            }
        }, true));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: EmbeddedNode HOME PORT");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        String nodeName = System.getenv().getOrDefault("ELASTICSEARCH_NODE_NAME", "dev-0");
        String seeds = System.getenv().getOrDefault("ELASTICSEARCH_SEED_HOSTS", "");
        Settings.Builder builder = Settings.builder()
            .put("cluster.name", System.getenv().getOrDefault("ELASTICSEARCH_CLUSTER_NAME", "productsearch-dev"))
            .put("node.name", nodeName)
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("network.host", "127.0.0.1")
            // In a container the HTTP port must be reachable from other pods;
            // the transport stays on loopback, so the node stays in development
            // mode (no bootstrap checks) as a single node.
            .put("http.host", System.getenv().getOrDefault("ELASTICSEARCH_HTTP_HOST", "127.0.0.1"))
            .put("http.port", args[1])
            .put("http.type", Netty4Plugin.NETTY_HTTP_TRANSPORT_NAME)
            .put("transport.type", Netty4Plugin.NETTY_TRANSPORT_NAME)
            // A nearly full development disk must not turn indices read-only.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            // Indices are created explicitly, with their mappings.
            .put("action.auto_create_index", false);
        if (seeds.isEmpty()) {
            builder.put("transport.port", "0").put("discovery.type", "single-node");
        } else {
            builder.put("transport.port", System.getenv("ELASTICSEARCH_TRANSPORT_PORT"))
                .putList("discovery.seed_hosts", List.of(seeds.split(",")))
                .putList("cluster.initial_master_nodes", List.of(System.getenv("ELASTICSEARCH_INITIAL_MASTERS").split(",")));
        }
        Settings settings = builder.build();
        long start = System.nanoTime();
        LogConfigurator.configureESLogging();
        LogConfigurator.configureWithoutConfig(settings);
        Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Collections.emptyMap(), null, () -> nodeName);
        EmbeddedNode node = new EmbeddedNode(env, List.of(Netty4Plugin.class));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "node-shutdown"));
        node.start();
        System.out.printf("node started in %d ms on http://127.0.0.1:%s%n", (System.nanoTime() - start) / 1_000_000, args[1]);
        stopped.await();
    }
}
