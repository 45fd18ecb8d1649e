/*
 * Copyright (c) 2026, the rdio JDK authors.
 * Licensed under the GNU General Public License version 2 only.
 */

/*
 * @test
 * @summary The Soft-RoCE device of the RDMA test guest works: userspace
 *          verbs list rxe0 with an active port, and an rsocket stream
 *          (librdmacm's rstream) carries verified data between a server and
 *          a client on the guest-only address.  The device exists only in
 *          the guest of make/scripts/rdma-guest.sh: anywhere else this test
 *          fails (it does not skip), so that a run without RDMA cannot pass.
 * @requires os.family == "linux"
 * @run main RdmaDeviceCheck
 */

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

public class RdmaDeviceCheck {
    static final String DEVICE = "rxe0";
    static final String GUEST = "this test needs the Soft-RoCE device " + DEVICE
            + " of the RDMA test guest: run it with make/scripts/rdma-guest.sh";

    // The guest passes its server address with jtreg -e:RDIO_RDMA_SERVER_ADDR;
    // -Drdio.rdma.server overrides it.
    static final String SERVER = System.getProperty("rdio.rdma.server",
            System.getenv().getOrDefault("RDIO_RDMA_SERVER_ADDR", "10.77.0.1"));
    // Not rstream's default port, so that a stray server of the guest's
    // baseline run cannot answer for ours.
    static final String PORT = System.getProperty("rdio.rdma.port", "7479");
    // Per command; far below jtreg's timeout, so that a hang fails here with
    // the command named.
    static final long TIMEOUT_SECONDS = 90;

    public static void main(String[] args) throws Exception {
        System.out.println("server address " + SERVER + ", port " + PORT);

        Result devices = run(List.of(tool("ibv_devices")));
        System.out.print(devices.output);
        boolean listed = devices.output.lines()
                .map(String::strip)
                .anyMatch(l -> l.equals(DEVICE) || l.startsWith(DEVICE + " ") || l.startsWith(DEVICE + "\t"));
        if (devices.status != 0 || !listed)
            throw new AssertionError("ibv_devices (exit status " + devices.status + ") does not list "
                    + DEVICE + ": " + GUEST);

        Result info = run(List.of(tool("ibv_devinfo"), "-d", DEVICE));
        System.out.print(info.output);
        if (info.status != 0 || !info.output.contains("PORT_ACTIVE"))
            throw new AssertionError("the port of " + DEVICE + " is not active (ibv_devinfo exit status "
                    + info.status + "): " + GUEST);

        // Ping-pong of small messages, then a stream of large ones; -T v
        // makes both sides check every byte they receive.
        stream("64", "1", "200");
        stream("65536", "20", "1");
    }

    /**
     * Runs an rstream server and client with the same transfer size, count
     * and iterations, and checks that both finish and that the client
     * reports the transfer.
     */
    static void stream(String size, String count, String iterations) throws Exception {
        String rstream = tool("rstream");
        List<String> common = List.of("-p", PORT, "-S", size, "-C", count, "-I", iterations, "-T", "v");
        List<String> serverCmd = new ArrayList<>(List.of(rstream, "-b", SERVER));
        serverCmd.addAll(common);
        List<String> clientCmd = new ArrayList<>(List.of(rstream, "-s", SERVER));
        clientCmd.addAll(common);
        String what = "rstream -S " + size + " -C " + count + " -I " + iterations + " over " + SERVER;

        // Output goes to files in the scratch directory, not through pipes:
        // nothing to drain, and the files stay for a post-mortem.
        Path serverLog = Path.of("rstream-" + size + ".server");
        Path clientLog = Path.of("rstream-" + size + ".client");
        Process server = start(serverCmd, serverLog);
        try {
            // The server listens a moment after it starts: retry a failed
            // connect for a while.
            Result client = run(clientCmd, clientLog);
            for (int i = 1; i < 30 && client.status != 0 && refused(client.output) && server.isAlive(); i++) {
                Thread.sleep(500);
                client = run(clientCmd, clientLog);
            }
            System.out.print(client.output);
            if (client.status != 0)
                throw new AssertionError(what + ": the client failed (exit status " + client.status + "): "
                        + client.output.strip());
            if (!server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                throw new AssertionError(what + ": the server did not finish within " + TIMEOUT_SECONDS
                        + " s after the client: " + read(serverLog).strip());
            String serverOutput = read(serverLog);
            System.out.print(serverOutput);
            if (server.exitValue() != 0)
                throw new AssertionError(what + ": the server failed (exit status " + server.exitValue() + "): "
                        + serverOutput.strip());

            // "custom  64  1  200  25k  0.01s  0.04  42.00": name, size,
            // transfers, iterations, total bytes, time, Gb/s, usec/xfer.
            String result = client.output.lines().filter(l -> l.startsWith("custom ")).findFirst().orElse(null);
            if (result == null)
                throw new AssertionError(what + ": the client reports no completed transfer: "
                        + client.output.strip());
            String[] f = result.trim().split("\\s+");
            if (f.length != 8 || !f[5].endsWith("s"))
                throw new AssertionError(what + ": unexpected result line \"" + result + "\"");
            System.out.println(what + ": " + f[4] + " in " + f[5] + ", " + f[6] + " Gb/s, " + f[7] + " us/xfer");
        } finally {
            server.destroyForcibly();
        }
    }

    /**
     * Whether rstream's client failed to connect ("rconnect: ..." or, when
     * the connect completes asynchronously, "rpoll: ..."), as it does when
     * the server does not listen yet.
     */
    static boolean refused(String output) {
        return output.lines().anyMatch(l -> l.startsWith("rconnect") || l.startsWith("async rconnect")
                || l.startsWith("rpoll"));
    }

    record Result(int status, String output) { }

    /** Runs a command to its end, or fails after TIMEOUT_SECONDS. */
    static Result run(List<String> cmd) throws Exception {
        return run(cmd, Path.of(Path.of(cmd.get(0)).getFileName() + ".out"));
    }

    static Result run(List<String> cmd, Path log) throws Exception {
        Process p = start(cmd, log);
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish within " + TIMEOUT_SECONDS
                    + " s: " + read(log).strip());
        }
        return new Result(p.exitValue(), read(log));
    }

    /** Starts a command with its stdout and stderr going to log. */
    static Process start(List<String> cmd, Path log) throws IOException {
        System.out.println("$ " + String.join(" ", cmd));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    static String read(Path log) throws IOException {
        return new String(Files.readAllBytes(log));
    }

    /** The path of an rdma-core tool, from PATH or the usual directories. */
    static String tool(String name) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null)
            dirs.addAll(List.of(path.split(":")));
        dirs.addAll(List.of("/usr/bin", "/usr/sbin", "/bin", "/sbin"));
        for (String dir : dirs) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p))
                return p.toString();
        }
        throw new AssertionError(name + " (rdma-core) is not on PATH nor in /usr/bin: " + GUEST);
    }
}
