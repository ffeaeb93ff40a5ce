import { expect, test } from "@playwright/test";

test("the probe list links to a probe's world", async ({ page }) => {
  await page.goto("/probes");
  const list = page.getByTestId("probe-list");
  await expect(list).toContainText("schedule_window");
  await list.getByRole("link", { name: "schedule_window" }).click();
  await expect(page).toHaveURL(/\/probes\/schedule_window$/);
  await expect(page.getByTestId("probe-id")).toHaveText("schedule_window");
  await expect(page.getByTestId("redacted-state")).toContainText("u_9182");
  await expect(page.getByTestId("hidden-state")).toContainText("Asia/Tokyo");
  await expect(page.getByTestId("redacted-state")).not.toContainText("Asia/Tokyo");
  await expect(page.getByTestId("user-text")).toHaveText(
    "Schedule a window for this user at 2026-09-08T09:00:00.",
  );
});

test("an unknown probe answers 404", async ({ page }) => {
  const res = await page.goto("/probes/no_such_probe");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
});
