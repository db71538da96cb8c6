import Glibc

/// This process's environment variables, read one at a time with getenv. ProcessInfo's
/// `environment` copies every variable into a new dictionary each time it is asked, a cost the
/// daemon paid several times before its bus name.
enum ProcessEnvironment {
    /// The value of `name`, if set.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The values of those of `names` that are set.
    static func values(_ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = value(name) { values[name] = value }
        }
        return values
    }
}
