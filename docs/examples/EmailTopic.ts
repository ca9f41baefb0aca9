import * as svc from "pulumi-svc";

const news = new svc.EmailTopic("news", {
  name: "Product news",
  description: "A monthly letter about what is new.",
});

export const topicId = news.topicId;
