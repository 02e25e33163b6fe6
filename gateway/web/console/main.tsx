import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Router } from "wouter";
import { App } from "./App";
import { ViewApp } from "./embedded/ViewApp";
import { embeddedView } from "./embedded/view";
import "./styles.css";
import { CONSOLE_BASE } from "./workspace";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      {embeddedView ? (
        <ViewApp view={embeddedView} />
      ) : (
        <Router base={CONSOLE_BASE}>
          <App />
        </Router>
      )}
    </StrictMode>,
  );
}
