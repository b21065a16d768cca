// The collector's contract is part of what an app sees of the uploader: a held upload's reason
// (`UploadHold.reason`) is the contract's `RejectionReason`, named without another import.
@_exported import NavContract
