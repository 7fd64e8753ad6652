// What other features may call of the settings: the one way a settings write goes (versioned,
// checked, recorded in the history), for features that serve their own slice on their own route.
export { writeSettings, type SettingsInput } from './service';
