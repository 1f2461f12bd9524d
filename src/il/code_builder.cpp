// CodeBuilder: label binding, region bookkeeping, and the checks finish() reports.
#include "il/code_builder.h"

#include <algorithm>

#include <fmt/format.h>

namespace cil::il {

Label CodeBuilder::new_label() {
  Label label = Label::at(body_.reserve_label());
  made_.push_back(label.id());
  return label;
}

void CodeBuilder::mark(Label label) {
  if (!label.valid() || std::find(made_.begin(), made_.end(), label.id()) == made_.end()) {
    fail(fmt::format("label {} marked but not made by this builder", label.id()));
    return;
  }
  if (std::find(bound_.begin(), bound_.end(), label.id()) != bound_.end()) {
    fail(fmt::format("label {} marked twice", label.id()));
    return;
  }
  // Two labels cannot share one instruction (an instruction has one id): the first gets a nop.
  if (pending_.valid()) emit(Op::Nop);
  pending_ = label;
  bound_.push_back(label.id());
}

void CodeBuilder::branch(Op op, Label target) {
  if (!target.valid()) fail("branch to an empty label");
  push(body_.make_branch(op, target.id()));
}

void CodeBuilder::push(Instr in) {
  if (pending_.valid()) {
    in.id = pending_.id();
    pending_ = Label();
  }
  for (auto [region, boundary] : waiting_) regions_[region].clause.*boundary = in.id;
  waiting_.clear();
  code_.push_back(std::move(in));
}

Region CodeBuilder::begin_try() {
  size_t index = regions_.size();
  regions_.push_back({});
  open_.push_back(index);
  at_next(index, &EhRegion::try_start);
  return Region(index);
}

CodeBuilder::OpenRegion* CodeBuilder::region_in(Region region, Stage expected, const char* what) {
  if (region.index_ >= regions_.size()) {
    fail(fmt::format("{} for a region this builder did not begin", what));
    return nullptr;
  }
  OpenRegion& r = regions_[region.index_];
  if (r.stage != expected) {
    const char* now = r.stage == Stage::Closed ? "already closed"
                      : r.stage == Stage::Try  ? "still in its try block"
                      : r.stage == Stage::Filter ? "still in its filter"
                                                 : "already in its handler";
    fail(fmt::format("{} in region {} {}", what, region.index_, now));
    return nullptr;
  }
  if (open_.empty() || open_.back() != region.index_) {
    fail(fmt::format("{} in region {} while an inner region is open", what, region.index_));
    return nullptr;
  }
  return &r;
}

void CodeBuilder::begin_catch(Region region, md::Token class_token) {
  OpenRegion* r = region_in(region, Stage::Try, "catch");
  if (!r) return;
  r->clause.kind = ClauseKind::Catch;
  r->clause.class_token = class_token;
  r->stage = Stage::Handler;
  at_next(region.index_, &EhRegion::try_end);
  at_next(region.index_, &EhRegion::handler_start);
}

void CodeBuilder::begin_finally(Region region) {
  OpenRegion* r = region_in(region, Stage::Try, "finally");
  if (!r) return;
  r->clause.kind = ClauseKind::Finally;
  r->stage = Stage::Handler;
  at_next(region.index_, &EhRegion::try_end);
  at_next(region.index_, &EhRegion::handler_start);
}

void CodeBuilder::begin_fault(Region region) {
  OpenRegion* r = region_in(region, Stage::Try, "fault");
  if (!r) return;
  r->clause.kind = ClauseKind::Fault;
  r->stage = Stage::Handler;
  at_next(region.index_, &EhRegion::try_end);
  at_next(region.index_, &EhRegion::handler_start);
}

void CodeBuilder::begin_filter(Region region) {
  OpenRegion* r = region_in(region, Stage::Try, "filter");
  if (!r) return;
  r->clause.kind = ClauseKind::Filter;
  r->stage = Stage::Filter;
  // II.19: the filter block follows the try block, and its handler follows the filter.
  at_next(region.index_, &EhRegion::try_end);
  at_next(region.index_, &EhRegion::filter_start);
}

void CodeBuilder::begin_filter_handler(Region region) {
  OpenRegion* r = region_in(region, Stage::Filter, "filter handler");
  if (!r) return;
  r->stage = Stage::FilterHandler;
  at_next(region.index_, &EhRegion::handler_start);
}

void CodeBuilder::end_region(Region region) {
  bool filter_handler = region.index_ < regions_.size() && regions_[region.index_].stage == Stage::FilterHandler;
  OpenRegion* r = region_in(region, filter_handler ? Stage::FilterHandler : Stage::Handler, "end");
  if (!r) return;
  r->stage = Stage::Closed;
  open_.pop_back();
  closed_.push_back(region.index_);
  at_next(region.index_, &EhRegion::handler_end);
}

void CodeBuilder::fail(std::string message) {
  if (!error_) error_ = make_error(ErrorKind::Usage, "code builder", std::move(message));
}

Expected<Code> CodeBuilder::finish() {
  if (!error_ && pending_.valid()) fail(fmt::format("label {} marked with no instruction after it", pending_.id()));
  if (!error_ && !open_.empty()) fail(fmt::format("region {} not closed", open_.back()));
  if (!error_ && !waiting_.empty()) fail(fmt::format("region {} ends with no instruction after it", waiting_.front().first));
  if (!error_) {
    for (const Instr& in : code_) {
      auto unbound = [&](uint32_t target) {
        return std::find(made_.begin(), made_.end(), target) != made_.end() &&
               std::find(bound_.begin(), bound_.end(), target) == bound_.end();
      };
      if (in.target != kNoLabel && unbound(in.target)) {
        fail(fmt::format("label {} used but never marked", in.target));
        break;
      }
      if (std::any_of(in.targets.begin(), in.targets.end(), unbound)) {
        fail("a switch target used but never marked");
        break;
      }
    }
  }
  Code out;
  for (size_t index : closed_) out.clauses.push_back(regions_[index].clause);
  out.instrs = std::move(code_);
  std::optional<Error> error = std::move(error_);
  code_.clear();
  pending_ = Label();
  made_.clear();
  bound_.clear();
  regions_.clear();
  open_.clear();
  closed_.clear();
  waiting_.clear();
  error_.reset();
  if (error) return *error;
  return out;
}

std::vector<Instr> CodeBuilder::take() {
  std::vector<Instr> out = std::move(code_);
  code_.clear();
  return out;
}

}  // namespace cil::il
