// The dash.js 5.1.1 rule sets as native strategies (DashJSStrategy); play them under `--profile dashjs` (on demand) or
// `--profile live` (low-latency live, dash.js's catch-up setting the rate).

extension StrategyDescriptor {
    /// The five rule sets, in catalogue order.
    public static let dashjsRuleSets: [StrategyDescriptor] = DashJSStrategy.RuleSet.allCases.map { dashjs($0) }

    /// One rule set, keeping its records in `sink` when given.
    public static func dashjs(_ ruleSet: DashJSStrategy.RuleSet, sink: DashJSRecordSink? = nil) -> StrategyDescriptor {
        let (name, description): (String, String) = switch ruleSet {
        case .default: ("dash.js 5.1.1 (defaults)", "dash.js's default rules: Throughput and BOLA switched by buffer, InsufficientBuffer, SwitchHistory, AbandonRequests.")
        case .bola: ("dash.js 5.1.1 BOLA", "dash.js's defaults with BOLA alone in place of the Throughput/BOLA switch.")
        case .throughput: ("dash.js 5.1.1 Throughput", "dash.js's defaults with ThroughputRule alone in place of the Throughput/BOLA switch.")
        case .l2a: ("dash.js 5.1.1 L2A", "dash.js's defaults with L2A-LL in place of the Throughput/BOLA switch.")
        case .lolp: ("dash.js 5.1.1 LoL+", "dash.js's defaults with LoL+ in place of the Throughput/BOLA switch.")
        }
        return StrategyDescriptor(id: ruleSet.rawValue, name: name, description: description) {
            DashJSStrategy(ruleSet: ruleSet, sink: sink)
        }
    }
}
