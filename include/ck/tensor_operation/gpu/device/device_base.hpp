// SPDX-License-Identifier: MIT
// The classic device-op interface: an operator makes an argument (the problem: pointers, lengths,
// strides, options) and an invoker (runs it), says whether it supports an argument, how much
// device workspace an argument needs and takes a pointer to it, and names itself.
//
//   auto op       = DeviceOp{};
//   auto argument = op.MakeArgument(...);
//   if(!op.IsSupportedArgument(argument)) ... op.GetUnsupportedReason(argument) says why ...
//   DeviceMem workspace(op.GetWorkSpaceSize(&argument));
//   op.SetWorkSpacePointer(&argument, workspace.GetDeviceBuffer());
//   float ms = op.MakeInvoker().Run(argument, StreamConfig{nullptr, true});
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <typeinfo>
#include "ck/ck.hpp"
#include "ck/stream_config.hpp"

namespace ck::tensor_operation::device {

struct BaseArgument
{
    BaseArgument()                               = default;
    BaseArgument(const BaseArgument&)            = default;
    BaseArgument& operator=(const BaseArgument&) = default;
    virtual ~BaseArgument()                      = default;

    void* p_workspace_ = nullptr;
};

struct BaseInvoker
{
    BaseInvoker()                              = default;
    BaseInvoker(const BaseInvoker&)            = default;
    BaseInvoker& operator=(const BaseInvoker&) = default;
    virtual ~BaseInvoker()                     = default;

    virtual float Run(const BaseArgument*, const StreamConfig& = StreamConfig{}) { return 0.f; }
};

struct BaseOperator
{
    BaseOperator()                               = default;
    BaseOperator(const BaseOperator&)            = default;
    BaseOperator& operator=(const BaseOperator&) = default;
    virtual ~BaseOperator()                      = default;

    virtual bool IsSupportedArgument(const BaseArgument*) { return false; }
    virtual std::string GetTypeString() const { return ""; }
    virtual std::string GetTypeIdName() const { return typeid(*this).name(); }
    virtual std::size_t GetTypeIdHashCode() const { return typeid(*this).hash_code(); }

    // bytes of device workspace the argument needs (0: none)
    virtual std::size_t GetWorkSpaceSize(const BaseArgument*) const { return 0; }
    virtual void SetWorkSpacePointer(BaseArgument* p_arg, void* p_workspace, const StreamConfig& = StreamConfig{}) const
    {
        p_arg->p_workspace_ = p_workspace;
    }
};

} // namespace ck::tensor_operation::device
