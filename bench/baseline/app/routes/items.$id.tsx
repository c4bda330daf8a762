// The app's dynamic-segment fixture, unchanged: same loader, same markup.
export { default, loader } from "../../../../e2e/fixtures/routes/items.$id";
