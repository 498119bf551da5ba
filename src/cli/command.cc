#include "src/cli/command.h"

#include "src/analysis/output/text_table.h"

namespace stepscope::cli {

std::string ProblemWithoutSubject(std::string_view message, std::string_view subject) {
  std::string text(message);
  if (!subject.empty()) {
    const std::string with_colon = std::string(subject) + ": ";
    const std::string with_space = std::string(subject) + " ";
    if (text.rfind(with_colon, 0) == 0) {
      text.erase(0, with_colon.size());
    } else if (text.rfind(with_space, 0) == 0) {
      text.erase(0, with_space.size());
    } else {
      for (std::string_view suffix_sep : {": ", " "}) {
        const std::string suffix = std::string(suffix_sep) + std::string(subject);
        if (text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
          text.erase(text.size() - suffix.size());
          break;
        }
      }
    }
  }
  // One line, whatever the message holds, and no control characters: a message can come
  // from a peer (a worker's error) or a file, and escape sequences would reach the terminal.
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return analysis::output::SanitizeForTerminal(text);
}

int ReportError(std::ostream& err, std::string_view subject, const Status& status) {
  std::string problem = ProblemWithoutSubject(status.message(), subject);
  if (problem.empty()) problem = std::string(StatusCodeName(status.code()));
  err << "stepscope: " << subject << ": " << problem << "\n";
  return ExitCodeFor(status);
}

int ReportUsageError(std::ostream& err, std::string_view command, std::string_view problem) {
  const Status status = InvalidArgumentError(std::string(problem));
  err << "stepscope: " << command << ": " << ProblemWithoutSubject(status.message(), "") << " (see stepscope help "
      << command << ")\n";
  return ExitCodeFor(status);
}

}  // namespace stepscope::cli
