import ABRLab
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct NetworkQualityTests {
    @Test func rawValuesAndOrder() {
        #expect(NetworkQuality.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(NetworkQuality.allCases == NetworkQuality.allCases.sorted())
        #expect(NetworkQuality.offline < .excellent)
    }

    @Test(arguments: [
        (0.0, NetworkQuality.offline), (1, .poor), (499_999, .poor), (500_000, .fair), (1_999_999, .fair),
        (2_000_000, .good), (4_999_999, .good), (5_000_000, .excellent), (1e9, .excellent),
    ])
    func bandwidthThresholds(bitsPerSecond: Double, expected: NetworkQuality) {
        #expect(NetworkQuality(bitsPerSecond: bitsPerSecond) == expected)
    }

    @Test(arguments: [
        (NetworkPath(status: .unsatisfied, interfaceTypes: [.wifi]), NetworkQuality.offline),
        (NetworkPath(status: .requiresConnection, interfaceTypes: [.wifi]), .offline),
        (NetworkPath(isConstrained: true, isExpensive: true, interfaceTypes: [.wifi]), .poor),
        (NetworkPath(isExpensive: true, interfaceTypes: [.wifi]), .fair),
        (NetworkPath(isExpensive: true, interfaceTypes: [.cellular]), .fair),
        (NetworkPath(interfaceTypes: [.wifi]), .excellent),
        (NetworkPath(interfaceTypes: [.wiredEthernet]), .excellent),
        (NetworkPath(interfaceTypes: [.cellular, .wifi]), .excellent),
        (NetworkPath(interfaceTypes: [.cellular]), .good),
        (NetworkPath(interfaceTypes: [.loopback]), .fair),
        (NetworkPath(interfaceTypes: []), .fair),
    ])
    func pathClassification(path: NetworkPath, expected: NetworkQuality) {
        #expect(NetworkQuality(path: path) == expected)
    }
}
