import PhotoValidatorCLI

await PhotoValidatorCommand.runFromCommandLine()
