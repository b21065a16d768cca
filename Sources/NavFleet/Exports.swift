// The upload outcomes NavFleet's ingest answers with are NavIngest's: whoever imports NavFleet
// reads them without a second import.
@_exported import NavIngest
