import Foundation

/// Records the pid of every child a test starts in `$LINNET_TEST_PID_DIR`, so the test script can
/// kill what a crashed test left behind.
public enum ChildProcessRegistry {
    /// Notes that `pid` is running, described by `description`.
    public static func record(pid: Int32, description: String) {
        guard let directory = ProcessInfo.processInfo.environment["LINNET_TEST_PID_DIR"] else { return }
        try? Data(description.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(pid)"))
    }

    /// Notes that `pid` was stopped.
    public static func forget(pid: Int32) {
        guard let directory = ProcessInfo.processInfo.environment["LINNET_TEST_PID_DIR"] else { return }
        try? FileManager.default.removeItem(atPath: directory + "/\(pid)")
    }
}
