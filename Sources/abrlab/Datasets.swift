import ArgumentParser

extension Abrlab {
    struct Datasets: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "datasets",
            abstract: "List, fetch and verify the reference datasets (Pensieve's, Sabre's) by id.",
            discussion: """
                Datasets are installed in $ABRLAB_DATASETS, else $XDG_CACHE_HOME/abrlab/datasets, else \
                ~/.cache/abrlab/datasets, each whole and verified or not at all. Once fetched, an id stands \
                wherever a path is taken: --traces pensieve/test, --video pensieve/video, \
                --param pensieve-native.model=pensieve/model (a file or folder of that name wins).

                Example:
                  abrlab datasets list
                  abrlab datasets fetch pensieve/test pensieve/video
                  abrlab compare --profile pensieve --video pensieve/video \\
                    --traces pensieve/test
                """,
            subcommands: [DatasetsList.self, DatasetsInfo.self, DatasetsFetch.self, DatasetsVerify.self, DatasetsPath.self],
            defaultSubcommand: DatasetsList.self
        )
    }
}
