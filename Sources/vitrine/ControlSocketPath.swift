/// Where the control socket is when no path is given.
enum ControlSocketPath {
    /// Under systemd, `control` in the service's runtime directory (its first, when the unit
    /// names several); elsewhere none.
    static func serviceDefault(_ environment: [String: String]) -> String? {
        guard let directories = environment["RUNTIME_DIRECTORY"],
            let first = directories.split(separator: ":").first, !first.isEmpty
        else { return nil }
        return "\(first)/control"
    }

    /// The socket `vitrine ctl` talks to without `--socket`: $VITRINE_CONTROL, else the
    /// service's (`$RUNTIME_DIRECTORY/control`, as when run from the unit), else the packaged
    /// unit's, /run/vitrine/control.
    static func clientDefault(_ environment: [String: String]) -> String {
        environment["VITRINE_CONTROL"] ?? serviceDefault(environment) ?? "/run/vitrine/control"
    }
}
