import ArgumentParser
import ValidatorConfiguration

/// A batch command whose setting flags are its catalog's, as `serve`'s are: they are not declared
/// as options one by one but gathered from the command line
/// (`PhotoValidatorCommand.runFromCommandLine`), read with `SettingFlags`, and listed by `--help`
/// from the same declarations.
protocol SettingsCommand: ParsableCommand {
    /// The settings this command takes as flags.
    static var settingsCatalog: SettingsCatalog { get }
}

extension SettingsCommand {
    /// The SETTINGS section of the command's `--help`: every flag of its catalog with its
    /// variable and default, as `serve --help` lists its own.
    static var settingsHelp: String {
        """

        Every setting below is a flag or the environment variable PHOTO_VALIDATOR_<KEY>; a flag wins \
        over the variable, which wins over the default.

        SETTINGS:

        """ + settingsCatalog.flagHelp
    }
}
