// What the tools do works on the archive's values (the export tables, the JSON Lines sources,
// checkpoints and proofs): a tool that imports NavTools names them without another import.
@_exported @_spi(Internals) import NavArchive
