// The app's form fixture, unchanged: same action, same markup.
export { default, action } from "../../../../e2e/fixtures/routes/action-ok";
