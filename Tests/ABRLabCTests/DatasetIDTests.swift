import ABRLabC
import ABRLabCompare
import ABRLabDatasets
import ABRLabFetch
import Foundation
import Testing
import TestSupport

/// Dataset ids in the keywords Python passes, through the same library code as the command line.
@Suite(.tags(.capi, .datasets), .selectedByTags, .needsDatasets("pensieve")) struct DatasetIDTests {
    @Test func anEnvironmentTakesDatasetIDsAndNamesTheFetchCommandForOneNotFetched() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-capi-datasets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let registry = try DatasetRegistry(contentsOf: PackageRoot.file(DatasetRegistry.relativePath).path)
        let fetcher = DatasetFetcher(store: DatasetStore(root: cache), source: .folder(Datasets.root))
        for id in ["pensieve/test", "pensieve/video"] { _ = try fetcher.fetch(try registry.dataset(id)) }
        // The process's environment is read where the library resolves ids; no other test of
        // this target names a dataset.
        setenv(DatasetStore.variable, cache.path, 1)
        defer { unsetenv(DatasetStore.variable) }
        let created = CInterfaceTests.create(#""profile": "pensieve""#, video: "pensieve/video", traces: "pensieve/test")
        let env = try #require(created.env, "\(created.message)")
        defer { abrlabEnvDestroy(env) }
        let layouts = try CInterfaceTests.layouts(env)
        let (levels, traces) = ((layouts["ladder_kbps"] as? [Double])?.count, (layouts["traces"] as? [String])?.count)
        #expect(levels == 6 && traces == 142, "levels and traces: \(String(describing: levels)), \(String(describing: traces))")

        let missing = CInterfaceTests.create(#""profile": "pensieve""#, video: "pensieve/video", traces: "sabre/4g")
        #expect(missing.env == nil)
        #expect(missing.message.contains("sabre/4g: dataset not fetched yet; run: abrlab datasets fetch sabre/4g"), "\(missing.message)")
    }
}
