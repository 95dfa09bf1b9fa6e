import Logging

/// Logs to standard error at the level asked for, so standard output stays for results: for the
/// package's command-line tools.
package enum ProcessLogging {
    package static func bootstrap(level: String) {
        let level = Logger.Level(rawValue: level) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
